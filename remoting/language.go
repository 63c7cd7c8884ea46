package remoting

import (
	"strconv"
	"strings"
)

// LanguageCode is the sender's language, Java's LanguageCode enum: its byte
// code in the ROCKETMQ binary header, its constant name in the JSON header
// ("language":"JAVA").
//
// Wire values: do not change. 4.9.8 defines JAVA (0) to RUST (12); 5.x adds
// NODE_JS (13), which a 4.9.8 peer decodes as null, as it does any byte or
// name it does not know.
type LanguageCode byte

// Language codes, with the byte codes of LanguageCode.java.
const (
	LanguageJava   LanguageCode = 0  // JAVA
	LanguageCPP    LanguageCode = 1  // CPP
	LanguageDotNet LanguageCode = 2  // DOTNET
	LanguagePython LanguageCode = 3  // PYTHON
	LanguageDelphi LanguageCode = 4  // DELPHI
	LanguageErlang LanguageCode = 5  // ERLANG
	LanguageRuby   LanguageCode = 6  // RUBY
	LanguageOther  LanguageCode = 7  // OTHER
	LanguageHTTP   LanguageCode = 8  // HTTP
	LanguageGo     LanguageCode = 9  // GO
	LanguagePHP    LanguageCode = 10 // PHP
	LanguageOMS    LanguageCode = 11 // OMS
	LanguageRust   LanguageCode = 12 // RUST
	LanguageNodeJS LanguageCode = 13 // NODE_JS, 5.x
)

// languageNames holds the JSON names, indexed by byte code.
var languageNames = [...]string{
	LanguageJava:   "JAVA",
	LanguageCPP:    "CPP",
	LanguageDotNet: "DOTNET",
	LanguagePython: "PYTHON",
	LanguageDelphi: "DELPHI",
	LanguageErlang: "ERLANG",
	LanguageRuby:   "RUBY",
	LanguageOther:  "OTHER",
	LanguageHTTP:   "HTTP",
	LanguageGo:     "GO",
	LanguagePHP:    "PHP",
	LanguageOMS:    "OMS",
	LanguageRust:   "RUST",
	LanguageNodeJS: "NODE_JS",
}

// Known tells whether 4.9.8 or 5.x defines this code.
func (l LanguageCode) Known() bool { return int(l) < len(languageNames) }

// String returns the JSON name, or "UNKNOWN(<n>)" for a byte no Java
// version defines (such a language is left out of a JSON header).
func (l LanguageCode) String() string {
	if l.Known() {
		return languageNames[l]
	}
	return "UNKNOWN(" + strconv.Itoa(int(l)) + ")"
}

// ParseLanguage reads the "language" name of a JSON header. Like fastjson
// (1.2.69 of 4.9.8 and 1.2.83 of 5.3.3), it matches the name without regard
// to case. An unknown or empty name gives false; Java then has a null
// language and carries on.
func ParseLanguage(name string) (LanguageCode, bool) {
	for i, n := range languageNames {
		if n == name {
			return LanguageCode(i), true
		}
	}
	for i, n := range languageNames {
		if strings.EqualFold(n, name) {
			return LanguageCode(i), true
		}
	}
	return LanguageOther, false
}
