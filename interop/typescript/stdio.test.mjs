// The demo over stdio: the SDK's StdioClientTransport spawns demo-weather
// -stdio for each client.
import { defineSuite, stdioTransport } from './harness.mjs';

defineSuite(stdioTransport());
