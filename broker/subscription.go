package broker

import (
	"errors"
	"strings"

	"github.com/rmqgo/rmqgo/store"
)

// errBadSubscription is a subscription expression FilterAPI cannot build.
var errBadSubscription = errors.New("broker: bad subscription")

// buildSubscription is FilterAPI.build: "*" or "" subscribes everything;
// a tag expression "A || B" subscribes those tags, kept with their
// String.hashCode in codeSet.
func buildSubscription(topic, expr, exprType string) (subscriptionData, error) {
	s := subscriptionData{Topic: topic, SubString: expr, ExpressionType: exprType}
	if exprType == "" {
		s.ExpressionType = expressionTypeTag
	}
	if s.ExpressionType != expressionTypeTag {
		return s, nil
	}
	if expr == "" || expr == subAll {
		s.SubString = subAll
		return s, nil
	}
	for _, tag := range strings.Split(expr, "||") {
		if tag = strings.TrimSpace(tag); tag != "" {
			s.TagsSet = append(s.TagsSet, tag)
			s.CodeSet = append(s.CodeSet, store.JavaStringHash(tag))
		}
	}
	if len(s.TagsSet) == 0 {
		return s, errBadSubscription
	}
	return s, nil
}
