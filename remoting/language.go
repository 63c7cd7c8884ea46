package remoting

// LanguageCode is the sender's language: a byte in the ROCKETMQ header, the
// enum name in the JSON header (wire values: do not change).
type LanguageCode byte

// Language codes of Java's LanguageCode enum (NODE_JS is 5.x).
const (
	LanguageJava LanguageCode = iota
	LanguageCPP
	LanguageDotNet
	LanguagePython
	LanguageDelphi
	LanguageErlang
	LanguageRuby
	LanguageOther
	LanguageHTTP
	LanguageGo
	LanguagePHP
	LanguageOMS
	LanguageRust
	LanguageNodeJS
)

var languageNames = [...]string{"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY", "OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS"}

// Known tells whether Java knows this code.
func (l LanguageCode) Known() bool { return int(l) < len(languageNames) }

// String returns the JSON name, or "OTHER" for a code Java does not know.
func (l LanguageCode) String() string {
	if l.Known() {
		return languageNames[l]
	}
	return "OTHER"
}

// ParseLanguage reads a JSON header's language name; false when unknown.
func ParseLanguage(name string) (LanguageCode, bool) {
	for i, n := range languageNames {
		if n == name {
			return LanguageCode(i), true
		}
	}
	return LanguageOther, false
}
