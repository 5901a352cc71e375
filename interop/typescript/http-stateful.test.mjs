// The demo over streamable HTTP with sessions: demo-weather -http
// 127.0.0.1:0, reached with the SDK's StreamableHTTPClientTransport.
import { defineSuite, httpTransport } from './harness.mjs';

defineSuite(httpTransport({ stateless: false }));
