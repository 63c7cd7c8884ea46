// Package doctest holds the tests that keep the repository's own
// documentation true to the tree. It has no code of its own.
//
//	doc.go            this comment
//	docmap_test.go    every package's doc.go names each of its non-test .go
//	                  files, and every .go file a doc.go names exists
//	figures_test.go   every figure block of README.md is the same text as
//	                  the marked block of the docs/ file it comes from, no
//	                  README line states a figure outside a block, and
//	                  docs/README.md lists every file of docs/
package doctest
