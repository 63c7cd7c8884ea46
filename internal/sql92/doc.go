// Package sql92 is RocketMQ's SQL92 message filter (the broker's
// org.apache.rocketmq.filter package): an expression over a message's
// properties, compiled once when a consumer subscribes
// (MessageSelector.bySql) and evaluated on every message it pulls.
//
// The grammar is SelectorParser.jj's:
//
//	expr    := and (OR and)*
//	and     := eq (AND eq)*
//	eq      := cmp ( '=' cmp | '<>' cmp | IS NULL | IS NOT NULL )*
//	cmp     := unary ( ('>'|'>='|'<'|'<=') unary
//	                 | [NOT] BETWEEN unary AND unary
//	                 | [NOT] IN '(' string (',' string)* ')'
//	                 | [NOT] (CONTAINS|STARTSWITH|ENDSWITH) string )*   (5.x)
//	unary   := '+' unary | '-' unary | NOT unary | primary
//	primary := string | decimal | float | TRUE | FALSE | NULL | id | '(' expr ')'
//
// Keywords are case-insensitive; strings are quoted with ' (” for a
// quote); -- and /* */ are comments.
//
// Values are Java's: a property is a string or missing (null); a literal
// is an Integer or Long (decimal), a Double, a string or a boolean.
// Comparisons convert a string to the other side's type (the parser's
// CONVERT_STRING_EXPRESSIONS mode), and '>' '>=' '<' '<=' between two
// strings compare them as doubles. The logic is three-valued: a
// comparison with a missing property is unknown (null), NOT unknown is
// unknown, AND/OR follow SQL, and a message matches only when the whole
// expression is TRUE. A value that cannot be converted makes the
// evaluation fail, which does not match either.
//
// The files:
//
//	lexer.go   the tokens of SelectorParser.jj
//	parser.go  Compile, Expr, Dialect: the grammar above into an expression tree
//	expr.go    the expression nodes, Java's values and conversions, the errors
package sql92
