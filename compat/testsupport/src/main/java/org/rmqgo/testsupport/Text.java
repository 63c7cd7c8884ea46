package org.rmqgo.testsupport;

/**
 * Small text helpers of the tools' diagnostics. Used by SyncSender (compat/testsupport/src/client)
 * and MasterRead (src/line5), and through them by compat/hatool and compat/ctlha.
 */
public final class Text {
    private Text() {
    }

    /** s up to its first line break ("" for null). */
    public static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
