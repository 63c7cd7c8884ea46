// Package testclock is a clock tests move by hand, for code that takes a
// Now func.
//
// The files:
//
//	clock.go  Clock: New, Now, Advance
package testclock
