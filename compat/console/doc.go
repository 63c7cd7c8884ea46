// Package console proves the web console (rocketmq-dashboard) against this
// project's servers as a user meets it: its pages in a real browser
// (headless Chromium through chromedp), first on the Java servers, then on
// ours, each page's text compared. run.sh starts the servers and the
// console and runs the tests; see docs/console.md.
//
//	run.sh                   one line's run: Java servers, then ours, then the comparison
//	browser_test.go          the browser: open, click, type, choose, wait, capture a page
//	helpers.js               the page-side helpers (what a page shows, which element to click)
//	env_test.go              the settings run.sh passes, and the masks of run-to-run values
//	load_test.go             the workload the pages show, through the Go client
//	dashboard1_test.go       rocketmq-dashboard 1.0.0's pages (the 4.x line)
//	dashboard2_test.go       rocketmq-dashboard 2.1.0's pages, ACL 2.0's among them (the 5.x line)
//	antd_test.go             2.1.0's controls: fields by their label, select and date boxes, dialogs
//	compare_test.go          each page on ours against the same page on the Java servers
//	known-differences.txt    the lines that may differ, and why
//
// It is its own module, so that the browser driver and the Go client stay
// out of the servers' dependencies.
package console
