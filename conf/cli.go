package conf

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUsage is returned for a command line the Java startups reject: an
// unknown option or a missing option argument. Java prints the usage text
// and exits with status 1.
var ErrUsage = errors.New("conf: bad command line")

// option is one commons-cli Option.
type option struct {
	short, long string
	hasArg      bool
	desc        string
}

// The options of ServerUtil.buildCommandlineOptions, NamesrvStartup and
// BrokerStartup, in the order commons-cli lists them in the usage text
// (sorted by short name).
func namesrvOptions() []option {
	return []option{
		{"c", "configFile", true, "Name server config properties file"},
		{"h", "help", false, "Print help"},
		{"n", "namesrvAddr", true, "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
		{"p", "printConfigItem", false, "Print all config items"},
	}
}

func brokerOptions() []option {
	return []option{
		{"c", "configFile", true, "Broker config properties file"},
		{"h", "help", false, "Print help"},
		{"m", "printImportantConfig", false, "Print important config item"},
		{"n", "namesrvAddr", true, "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
		{"p", "printConfigItem", false, "Print all config item"},
	}
}

// CommandLine is a parsed mqnamesrv / mqbroker command line.
type CommandLine struct {
	// App is "mqnamesrv" or "mqbroker".
	App string
	// Values maps the long names of the options given with an argument to
	// their first argument (commons-cli's getOptionValue), e.g.
	// "configFile" and "namesrvAddr".
	Values map[string]string
	// Flags holds the long names of the options given, with or without an
	// argument ("help", "printConfigItem", "printImportantConfig", ...).
	Flags map[string]bool
	// Args are the words that are not options; the startups ignore them
	// (sh mqbroker -n x:9876 autoCreateTopicEnable=true has no effect).
	Args    []string
	options []option
}

// ConfigFile is the -c/--configFile argument, "" when absent.
func (c *CommandLine) ConfigFile() string { return c.Values["configFile"] }

// Help reports -h/--help: Java prints Usage and exits 0.
func (c *CommandLine) Help() bool { return c.Flags["help"] }

// PrintConfigItem reports -p/--printConfigItem.
func (c *CommandLine) PrintConfigItem() bool { return c.Flags["printConfigItem"] }

// PrintImportantConfig reports -m/--printImportantConfig (broker only).
func (c *CommandLine) PrintImportantConfig() bool { return c.Flags["printImportantConfig"] }

// Properties is ServerUtil.commandLine2Properties: the options that carry
// a value, keyed by long name, attributed to the source "command line". The
// startups bind it to BrokerConfig / NamesrvConfig after the file, so that
// -n beats namesrvAddr in the file.
func (c *CommandLine) Properties() *Properties {
	p := NewProperties()
	for _, k := range sortedKeys(c.Values) {
		p.Set(Entry{Key: k, Value: c.Values[k], Origin: Origin{File: commandLineSource}})
	}
	return p
}

// Usage is the text commons-cli's HelpFormatter prints for the options,
// "usage: mqbroker [-c <arg>] [-h] ..." followed by one line per option.
func (c *CommandLine) Usage() string {
	return usage(c.App, c.options)
}

const commandLineSource = "command line"

// ParseNamesrvArgs parses mqnamesrv's arguments: -c/--configFile <file>,
// -n/--namesrvAddr <addr>, -p/--printConfigItem, -h/--help.
func ParseNamesrvArgs(args []string) (*CommandLine, error) {
	return parseArgs("mqnamesrv", namesrvOptions(), args)
}

// ParseBrokerArgs parses mqbroker's arguments: those of mqnamesrv plus
// -m/--printImportantConfig.
func ParseBrokerArgs(args []string) (*CommandLine, error) {
	return parseArgs("mqbroker", brokerOptions(), args)
}

// parseArgs follows commons-cli 1.2's PosixParser, which the 4.9.8 startups
// use, including its quirks:
//
//   - "-cFILE", "--configFile=FILE", "-configFile FILE" and "--c FILE" all
//     work, and so does "-n=a:9876", whose argument is "=a:9876";
//   - "-pm" is -p -m, "-pcFILE" is -p -c FILE; "--help=x" is -h and the
//     stray word "x";
//   - an option argument may start with '-' unless it names a known option
//     ("-n -x" sets namesrvAddr to "-x", "-n -p" is a missing argument);
//   - one leading and one trailing double quote of an argument are removed;
//   - "--" ends the options (but is taken as an argument right after -c or
//     -n); a repeated option keeps its first argument.
//
// 5.x uses commons-cli 1.5's DefaultParser, which also accepts unique
// prefixes of long names ("--config"); that is not emulated.
func parseArgs(app string, opts []option, args []string) (*CommandLine, error) {
	cl := &CommandLine{App: app, Values: map[string]string{}, Flags: map[string]bool{}, options: opts}
	tokens := flatten(opts, args)
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t == "--":
			cl.Args = append(cl.Args, tokens[i+1:]...)
			return cl, nil
		case t == "-" || !strings.HasPrefix(t, "-"):
			cl.Args = append(cl.Args, t)
		default:
			next, err := cl.takeOption(opts, tokens, i)
			if err != nil {
				return nil, err
			}
			i = next
		}
	}
	return cl, nil
}

// takeOption processes the option token at tokens[i] and its argument; it
// returns the index of the last token consumed.
func (cl *CommandLine) takeOption(opts []option, tokens []string, i int) (int, error) {
	o, ok := lookupOption(opts, tokens[i])
	if !ok {
		return 0, fmt.Errorf("%w: Unrecognized option: %s", ErrUsage, tokens[i])
	}
	cl.Flags[o.long] = true
	if !o.hasArg {
		return i, nil
	}
	if i+1 >= len(tokens) || isKnownOption(opts, tokens[i+1]) {
		return 0, fmt.Errorf("%w: Missing argument for option: %s", ErrUsage, o.short)
	}
	if _, seen := cl.Values[o.long]; !seen {
		cl.Values[o.long] = stripQuotes(tokens[i+1])
	}
	return i + 1, nil
}

// flatten is PosixParser.flatten (1.2): "--name[=value]" becomes the
// option and its value when name is an option (an unknown one stays whole
// and is rejected later); a dash word that is two characters long or names an
// option stays whole; any other dash word is burst into single letters.
func flatten(opts []option, args []string) []string {
	var tokens []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a, "=")
			o, ok := lookupOption(opts, name)
			if !ok {
				tokens = append(tokens, a)
				continue
			}
			tokens = append(tokens, "-"+o.short)
			if hasValue {
				tokens = append(tokens, value)
			}
		case a == "-" || !strings.HasPrefix(a, "-"):
			tokens = append(tokens, a)
		case len(a) == 2 || hasOption(opts, a):
			tokens = append(tokens, a)
		default:
			tokens = append(tokens, burst(opts, a)...)
		}
	}
	return tokens
}

// burst is PosixParser.burstToken: "-xyz" becomes -x -y -z while the letters
// are options, the rest of the word being the argument of the first option
// that takes one; an unknown letter leaves the whole word, which the parser
// then rejects.
func burst(opts []option, a string) []string {
	var out []string
	for i := 1; i < len(a); i++ {
		o, ok := lookupOption(opts, a[i:i+1])
		if !ok {
			return append(out, a)
		}
		out = append(out, "-"+o.short)
		if o.hasArg && i+1 < len(a) {
			return append(out, a[i+1:])
		}
	}
	return out
}

func stripHyphens(s string) string {
	if strings.HasPrefix(s, "--") {
		return s[2:]
	}
	return strings.TrimPrefix(s, "-")
}

// hasOption is Options.hasOption: s without its leading hyphens is a short or
// a long option name.
func hasOption(opts []option, s string) bool {
	_, ok := lookupOption(opts, s)
	return ok
}

// isKnownOption is the test that ends an option's arguments: a token that
// starts with '-' and names an option.
func isKnownOption(opts []option, s string) bool {
	return strings.HasPrefix(s, "-") && hasOption(opts, s)
}

func lookupOption(opts []option, s string) (option, bool) {
	name := stripHyphens(s)
	for _, o := range opts {
		if o.short == name || o.long == name {
			return o, true
		}
	}
	return option{}, false
}

// stripQuotes is commons-cli's Util.stripLeadingAndTrailingQuotes (1.2).
func stripQuotes(s string) string {
	s = strings.TrimPrefix(s, `"`)
	return strings.TrimSuffix(s, `"`)
}

// usage renders HelpFormatter.printHelp(app, options, true) at width 110.
func usage(app string, opts []option) string {
	var b strings.Builder
	b.WriteString("usage: " + app)
	for _, o := range opts {
		if o.hasArg {
			fmt.Fprintf(&b, " [-%s <arg>]", o.short)
		} else {
			fmt.Fprintf(&b, " [-%s]", o.short)
		}
	}
	b.WriteByte('\n')
	width := 0
	left := make([]string, len(opts))
	for i, o := range opts {
		left[i] = fmt.Sprintf(" -%s,--%s", o.short, o.long)
		if o.hasArg {
			left[i] += " <arg>"
		}
		width = max(width, len(left[i]))
	}
	for i, o := range opts {
		fmt.Fprintf(&b, "%-*s   %s\n", width, left[i], o.desc)
	}
	return b.String()
}
