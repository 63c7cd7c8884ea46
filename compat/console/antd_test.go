package console

import (
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The controls of rocketmq-dashboard 2.1.0's pages (React with antd), used
// as a user does: a field is found by the label beside it, a select box
// opens on a click and takes typing when it has a search, a date box takes
// typed text and its OK, a dialog (.ant-modal-content) closes with its X.
const modal2 = ".ant-modal-content"

// fillIn types text into the field beside label in scope.
func (b *browser) fillIn(scope, label, text string) {
	b.t.Helper()
	b.typeInto(label, labelledJS(scope, label), text)
}

// pick chooses option in the select box beside label in scope; a box of
// several choices it then closes with Escape, as a user does.
func (b *browser) pick(scope, label, option string) {
	b.t.Helper()
	box := labelledJS(scope, label)
	b.openList(label, box)
	search := fmt.Sprintf(`cx.selectSearch(%s)`, box)
	if b.eval(search+` ? "yes" : ""`) != "" {
		b.do("search "+label, chromedp.SendKeys(chromedp.JSPath(withHelpers(search)), option))
	}
	b.click(option+" of "+label, fmt.Sprintf(`cx.option(%s)`, jsString(option)))
	// (a box of several choices stays open for the next one)
	if b.eval(box+`.closest(".ant-select").classList.contains("ant-select-multiple") ? "yes" : ""`) != "" {
		b.do("close "+label, chromedp.SendKeys(chromedp.JSPath(withHelpers(search)), kb.Escape))
	}
	b.waitFor(label+"'s list to close", `!cx.dropdownOpen()`)
}

// openList clicks the box beside label until its list is open: a click
// that lands while the dialog is still settling opens nothing (a CI run on
// a loaded machine saw the Resource box of 2.1.0's ACL dialog stay shut),
// and a user clicks again. A shut list is never clicked open twice.
func (b *browser) openList(label, box string) {
	b.t.Helper()
	for range 3 {
		b.click(label, box)
		if b.holds(`cx.dropdownOpen()`, 5*time.Second) == nil {
			return
		}
	}
}

// pickTime types a time into the date box beside label in scope and
// confirms it with the box's OK.
func (b *browser) pickTime(scope, label string, at time.Time) {
	b.t.Helper()
	b.typeInto(label, labelledJS(scope, label), at.Format("2006-01-02 15:04:05"))
	b.click("OK of "+label, `cx.pickerOK()`)
	b.waitFor(label+"'s calendar to close", `!cx.dropdownOpen()`)
}

// closeModals closes every open dialog, the newest first, with its X,
// once no dialog is still opening or closing (a dialog may close itself
// after its work, as the topic dialog does after a commit).
func (b *browser) closeModals() {
	b.t.Helper()
	const open = `Array.from(document.querySelectorAll(".ant-modal-content")).filter(cx.visible).length`
	for {
		b.waitFor("the dialogs to settle", `!cx.moving()`)
		n := b.eval(open + ` + ""`)
		if n == "0" {
			return
		}
		b.click("the dialog's X", `cx.lastVisible(".ant-modal-content").querySelector(".ant-modal-close")`)
		b.waitFor("a dialog to close", fmt.Sprintf(`%s < %s`, open, n))
	}
}

// modalPage2 clicks a table row's button (row is the text of one of the
// row's cells), waits until the dialog shows the texts, captures it as
// page name and closes it.
func (b *browser) modalPage2(row, button, name string, m masker, texts ...string) {
	b.t.Helper()
	b.rowAct(row, button)
	b.waitText(modal2, texts...)
	b.capture(name, modal2, m)
	b.closeModals()
}

func labelledJS(scope, label string) string {
	return fmt.Sprintf(`cx.labelled(%s, %s)`, jsString(scope), jsString(label))
}
