package conf

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// summary renders a parse result the way the commons-cli 1.2 harness that
// produced the expectations printed it (PosixParser over mqbroker's
// options, JDK 17).
func summary(cl *CommandLine, err error) string {
	if err != nil {
		return "ERR " + strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ")
	}
	var parts []string
	for _, k := range []string{"configFile", "namesrvAddr"} {
		if v, ok := cl.Values[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	for _, k := range []string{"help", "printConfigItem", "printImportantConfig"} {
		if cl.Flags[k] {
			parts = append(parts, k)
		}
	}
	parts = append(parts, fmt.Sprintf("args=[%s]", strings.Join(cl.Args, ", ")))
	return strings.Join(parts, " ")
}

func TestParseBrokerArgsLikeCommonsCLI(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-c", "a.conf"}, "configFile=a.conf args=[]"},
		{[]string{"-ca.conf"}, "configFile=a.conf args=[]"},
		{[]string{"--configFile=a.conf"}, "configFile=a.conf args=[]"},
		{[]string{"-configFile", "a.conf"}, "configFile=a.conf args=[]"},
		{[]string{"--c", "a.conf"}, "configFile=a.conf args=[]"},
		{[]string{"-pm"}, "printConfigItem printImportantConfig args=[]"},
		{[]string{"-p", "-m"}, "printConfigItem printImportantConfig args=[]"},
		{[]string{"-n", "-x"}, "namesrvAddr=-x args=[]"},
		{[]string{"-n", "-p"}, "ERR Missing argument for option: n"},
		{[]string{"-x"}, "ERR Unrecognized option: -x"},
		{[]string{"--unknown"}, "ERR Unrecognized option: --unknown"},
		{[]string{"-n", `"a:1"`}, "namesrvAddr=a:1 args=[]"},
		{[]string{"-n", "a", "-n", "b"}, "namesrvAddr=a args=[]"},
		{[]string{"foo", "-p", "bar"}, "printConfigItem args=[foo, bar]"},
		{[]string{"--", "-p"}, "args=[-p]"},
		{[]string{"-c"}, "ERR Missing argument for option: c"},
		{[]string{"-c", "--", "-p"}, "configFile=-- printConfigItem args=[]"},
		{[]string{"-c", "a", "b"}, "configFile=a args=[b]"},
		{[]string{"-", "-p"}, "printConfigItem args=[-]"},
		{[]string{"-n=a:1"}, "namesrvAddr==a:1 args=[]"},
		{[]string{"-hp"}, "help printConfigItem args=[]"},
		{[]string{"-mp"}, "printConfigItem printImportantConfig args=[]"},
		{[]string{"--namesrvAddr", "a:1"}, "namesrvAddr=a:1 args=[]"},
		{[]string{"-pc", "a"}, "configFile=a printConfigItem args=[]"},
		{[]string{"--help=x"}, "help args=[x]"},
		{[]string{"-n", "x:9876", "autoCreateTopicEnable=true"}, "namesrvAddr=x:9876 args=[autoCreateTopicEnable=true]"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cl, err := ParseBrokerArgs(tt.args)
			assert.Equal(t, tt.want, summary(cl, err))
			if err != nil {
				assert.True(t, errors.Is(err, ErrUsage))
				assert.Equal(t, 1, ExitCode(err))
			}
		})
	}
}

func TestParseNamesrvArgsHasNoPrintImportant(t *testing.T) {
	_, err := ParseNamesrvArgs([]string{"-m"})
	require.ErrorIs(t, err, ErrUsage)
	cl, err := ParseNamesrvArgs([]string{"-c", "ns.conf", "-p", "-n", "x:1"})
	require.NoError(t, err)
	assert.Equal(t, "ns.conf", cl.ConfigFile())
	assert.True(t, cl.PrintConfigItem())
	assert.False(t, cl.Help())
}

// The long names key the command-line properties (commandLine2Properties).
func TestCommandLineProperties(t *testing.T) {
	cl, err := ParseBrokerArgs([]string{"-n", "a:1;b:2", "-c", "x.conf", "-p"})
	require.NoError(t, err)
	p := cl.Properties()
	keys := keysOf(p)
	sort.Strings(keys)
	assert.Equal(t, []string{"configFile", "namesrvAddr"}, keys)
	e, _ := p.Get("namesrvAddr")
	assert.Equal(t, Origin{File: "command line"}, e.Origin)
}

// The usage text is byte for byte commons-cli 1.2's HelpFormatter at width 110.
func TestUsage(t *testing.T) {
	cl, err := ParseBrokerArgs([]string{"-h"})
	require.NoError(t, err)
	assert.True(t, cl.Help())
	assert.Equal(t, "usage: mqbroker [-c <arg>] [-h] [-m] [-n <arg>] [-p]\n"+
		" -c,--configFile <arg>       Broker config properties file\n"+
		" -h,--help                   Print help\n"+
		" -m,--printImportantConfig   Print important config item\n"+
		" -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"+
		" -p,--printConfigItem        Print all config item\n", cl.Usage())
	ns, err := ParseNamesrvArgs(nil)
	require.NoError(t, err)
	assert.Equal(t, "usage: mqnamesrv [-c <arg>] [-h] [-n <arg>] [-p]\n"+
		" -c,--configFile <arg>    Name server config properties file\n"+
		" -h,--help                Print help\n"+
		" -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"+
		" -p,--printConfigItem     Print all config items\n", ns.Usage())
}
