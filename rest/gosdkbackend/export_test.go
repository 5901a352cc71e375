package gosdkbackend

// ErrClosed is what a closed Backend's methods return.
var ErrClosed = errClosed
