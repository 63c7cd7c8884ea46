package main

// Command-line options as Apache Commons CLI parses and prints them for
// MQAdminStartup (ServerUtil.parseCmdLine with a PosixParser,
// HelpFormatter at width 110): every command has -h,--help and
// -n,--namesrvAddr besides its own; a missing required option prints
// "Missing required option: t" and the usage, and exits 1.

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// helpWidth is the width ServerUtil.printCommandLineHelp gives HelpFormatter.
const helpWidth = 110

// errUsage is returned by parse when the arguments do not fit the options.
var errUsage = errors.New("rmqadmin: bad arguments")

// option is one org.apache.commons.cli.Option.
type option struct {
	short    string // "t"; empty for a long-only option
	long     string // "topic"
	hasArg   bool
	required bool
	desc     string
	// group names a required one-of group (Commons CLI's OptionGroup):
	// exactly one option of the group must be given.
	group string
}

// key is Option.getKey: the short name, else the long one.
func (o option) key() string {
	if o.short != "" {
		return o.short
	}
	return o.long
}

// commonOptions are ServerUtil.buildCommandlineOptions' -h and -n.
func commonOptions() []option {
	return []option{
		{short: "h", long: "help", desc: "Print help"},
		{short: "n", long: "namesrvAddr", hasArg: true, desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
	}
}

// cmdLine is a parsed command line: the value of each option given, by
// key ("" for an option without argument).
type cmdLine map[string]string

// has reports whether the option keyed k was given.
func (c cmdLine) has(k string) bool { _, ok := c[k]; return ok }

// get is the trimmed value of option k ("" when absent).
func (c cmdLine) get(k string) string { return strings.TrimSpace(c[k]) }

// parse reads args against opts as a PosixParser does ("-t T", "-tT",
// "--topic T", "--topic=T"), then checks the required options and groups.
// On a problem it writes Commons CLI's message to stderr and the usage to
// stdout and returns errUsage.
func parse(name string, opts []option, args []string, stdout, stderr io.Writer) (cmdLine, error) {
	c, err := scan(opts, args)
	if err == nil {
		err = checkRequired(opts, c)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		printHelp(stdout, name, opts)
		return nil, errUsage
	}
	return c, nil
}

// scan assigns each argument to its option.
func scan(opts []option, args []string) (cmdLine, error) {
	c := cmdLine{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		o, inline, ok := lookup(opts, a)
		if !ok {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				//lint:ignore ST1005 Commons CLI's message, which mqadmin prints verbatim
				return nil, fmt.Errorf("Unrecognized option: %s", a)
			}
			continue // Commons CLI keeps stray words as arguments; mqadmin ignores them
		}
		if !o.hasArg {
			c[o.key()] = ""
			continue
		}
		if inline == "" {
			if i+1 >= len(args) {
				//lint:ignore ST1005 Commons CLI's message, which mqadmin prints verbatim
				return nil, fmt.Errorf("Missing argument for option: %s", o.key())
			}
			i++
			inline = args[i]
		}
		c[o.key()] = inline
	}
	return c, nil
}

// lookup finds the option an argument names and any value attached to it.
func lookup(opts []option, arg string) (option, string, bool) {
	if strings.HasPrefix(arg, "--") {
		name, value, _ := strings.Cut(arg[2:], "=")
		for _, o := range opts {
			if o.long == name {
				return o, value, true
			}
		}
		return option{}, "", false
	}
	if len(arg) < 2 || arg[0] != '-' {
		return option{}, "", false
	}
	for _, o := range opts {
		if o.short != "" && strings.HasPrefix(arg[1:], o.short) {
			rest := arg[1+len(o.short):]
			if rest == "" || o.hasArg {
				return o, rest, true
			}
		}
	}
	return option{}, "", false
}

// checkRequired reports Commons CLI's MissingOptionException message.
func checkRequired(opts []option, c cmdLine) error {
	var missing []string
	groups := map[string][]option{}
	var groupOrder []string
	for _, o := range sortedOptions(opts) {
		if o.group != "" {
			if groups[o.group] == nil {
				groupOrder = append(groupOrder, o.group)
			}
			groups[o.group] = append(groups[o.group], o)
			continue
		}
		if o.required && !c.has(o.key()) {
			missing = append(missing, o.key())
		}
	}
	for _, g := range groupOrder {
		if !anyGiven(groups[g], c) {
			missing = append(missing, groupString(groups[g]))
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		//lint:ignore ST1005 Commons CLI's message, which mqadmin prints verbatim
		return fmt.Errorf("Missing required option: %s", missing[0])
	}
	//lint:ignore ST1005 Commons CLI's message, which mqadmin prints verbatim
	return fmt.Errorf("Missing required options: %s", strings.Join(missing, ", "))
}

func anyGiven(group []option, c cmdLine) bool {
	for _, o := range group {
		if c.has(o.key()) {
			return true
		}
	}
	return false
}

// groupString is OptionGroup.toString: [-b brokerAddr desc, -c ...].
func groupString(group []option) string {
	parts := make([]string, len(group))
	for i, o := range group {
		parts[i] = "-" + o.short + " " + o.desc
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// sortedOptions is the options in HelpFormatter's order: by key, case
// insensitive.
func sortedOptions(opts []option) []option {
	s := append([]option(nil), opts...)
	sort.SliceStable(s, func(i, j int) bool {
		return strings.ToLower(s[i].key()) < strings.ToLower(s[j].key())
	})
	return s
}

// printHelp is HelpFormatter.printHelp(name, options, true): the usage
// line, then one line per option.
func printHelp(w io.Writer, name string, opts []option) {
	usage := "usage: " + name + " " + usageSyntax(opts)
	fmt.Fprintln(w, wrapText(usage, helpWidth, strings.IndexByte(usage, ' ')+1))
	sorted := sortedOptions(opts)
	lefts := make([]string, len(sorted))
	widest := 0
	for i, o := range sorted {
		lefts[i] = optionLeft(o)
		widest = max(widest, len(lefts[i]))
	}
	for i, o := range sorted {
		line := lefts[i] + strings.Repeat(" ", widest-len(lefts[i])) + "   " + o.desc
		fmt.Fprintln(w, wrapText(line, helpWidth, widest+3))
	}
}

// optionLeft is an option's left column: " -t,--topic <arg>".
func optionLeft(o option) string {
	s := "    --" + o.long
	if o.short != "" {
		s = " -" + o.short + ",--" + o.long
	}
	if o.hasArg {
		s += " <arg>"
	}
	return s
}

// usageSyntax is the option list of the usage line: optional options in
// brackets, a required group as "-b <arg> | -c <arg> " where its first
// member sorts.
func usageSyntax(opts []option) string {
	var parts []string
	done := map[string]bool{}
	for _, o := range sortedOptions(opts) {
		if o.group != "" {
			if done[o.group] {
				continue
			}
			done[o.group] = true
			var members []string
			for _, m := range sortedOptions(opts) {
				if m.group == o.group {
					members = append(members, optionUsage(m))
				}
			}
			parts = append(parts, strings.Join(members, " | ")+" ")
			continue
		}
		if o.required {
			parts = append(parts, optionUsage(o))
		} else {
			parts = append(parts, "["+optionUsage(o)+"]")
		}
	}
	return strings.Join(parts, " ")
}

// optionUsage is "-t <arg>", "--attributes <arg>" or "-h".
func optionUsage(o option) string {
	s := "--" + o.long
	if o.short != "" {
		s = "-" + o.short
	}
	if o.hasArg {
		s += " <arg>"
	}
	return s
}

// wrapText is HelpFormatter.renderWrappedText: lines of at most width,
// broken at the last space, continued after tab spaces.
func wrapText(text string, width, tab int) string {
	pos := wrapPos(text, width)
	if pos < 0 {
		return strings.TrimRight(text, " ")
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(text[:pos], " "))
	if tab >= width {
		tab = 1
	}
	pad := strings.Repeat(" ", tab)
	for {
		text = pad + strings.TrimSpace(text[pos:])
		pos = wrapPos(text, width)
		b.WriteByte('\n')
		if pos < 0 {
			b.WriteString(text)
			return b.String()
		}
		if len(text) > width && pos == tab-1 {
			pos = width
		}
		b.WriteString(strings.TrimRight(text[:pos], " "))
	}
}

// wrapPos is HelpFormatter.findWrapPos from 0: -1 when text fits.
func wrapPos(text string, width int) int {
	if width >= len(text) {
		return -1
	}
	for pos := width; pos >= 0; pos-- {
		if text[pos] == ' ' {
			if pos > 0 {
				return pos
			}
			break
		}
	}
	return width
}
