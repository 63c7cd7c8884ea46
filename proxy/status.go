package proxy

// Statuses (ResponseBuilder): every response carries an apache.rocketmq.v2
// Status; a broker's remoting answer maps to one.

import (
	"errors"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// status builds a Status.
func status(code apiv2.Code, msg string) *apiv2.Status {
	return &apiv2.Status{Code: code, Message: msg}
}

// statusOK is Code.OK with its name, as Java answers.
func statusOK() *apiv2.Status { return status(apiv2.Code_OK, apiv2.Code_OK.String()) }

// proxyError is a request refused with a status (GrpcProxyException).
type proxyError struct {
	code apiv2.Code
	msg  string
}

func (e *proxyError) Error() string { return e.msg }

func refuse(code apiv2.Code, msg string) error { return &proxyError{code: code, msg: msg} }

// proxyExceptionPrefix starts the message of a status made of Java's
// ProxyException (GrpcProxyException's message is the cause's toString).
const proxyExceptionPrefix = "org.apache.rocketmq.proxy.common.ProxyException: "

// proxyException is a refusal Java makes with a ProxyException.
func proxyException(code apiv2.Code, msg string) error { return refuse(code, proxyExceptionPrefix+msg) }

// statusOf is the status of an error (buildStatus(Throwable)).
func statusOf(err error) *apiv2.Status {
	var pe *proxyError
	if errors.As(err, &pe) {
		return status(pe.code, pe.msg)
	}
	if errors.Is(err, errTopicNotFound) {
		return status(apiv2.Code_TOPIC_NOT_FOUND, err.Error())
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return status(apiv2.Code_PROXY_TIMEOUT, err.Error())
	}
	return status(apiv2.Code_INTERNAL_SERVER_ERROR, err.Error())
}

// brokerCode is ResponseBuilder.buildCode: the few broker codes with a
// status of their own; every other one is INTERNAL_SERVER_ERROR.
func brokerCode(code int32) apiv2.Code {
	switch remoting.ResponseCode(code) {
	case remoting.Success:
		return apiv2.Code_OK
	case remoting.SystemBusy:
		return apiv2.Code_TOO_MANY_REQUESTS
	case remoting.RequestCodeNotSupported:
		return apiv2.Code_NOT_IMPLEMENTED
	case remoting.SubscriptionGroupNotExist:
		return apiv2.Code_CONSUMER_GROUP_NOT_FOUND
	}
	return apiv2.Code_INTERNAL_SERVER_ERROR
}

// brokerError is a broker's refusal as an error: in local mode Java's
// ProxyException(INTERNAL_SERVER_ERROR, remark), whose message is its
// toString; in cluster mode MQBrokerException, the code mapped and the
// bare remark.
func (m *messaging) brokerError(resp *remoting.Command) error {
	if m.cfg.local() {
		return proxyException(apiv2.Code_INTERNAL_SERVER_ERROR, resp.Remark)
	}
	return refuse(brokerCode(resp.Code), resp.Remark)
}
