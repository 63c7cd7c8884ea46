package remotingauth

// What each request asks ACL 2.0's authorization for: 5.3.3's
// DefaultAuthorizationContextBuilder, its switch for the client codes and,
// for every other code, the @RocketMQAction / @RocketMQResource
// annotations of the code's request header (authAnnotated below; a code
// without an annotated header asks nothing). A group named by its retry
// topic is the group; a retry topic in a topic field is its group.
//
//	GET_ROUTEINFO_BY_TOPIC (105)  topic: Pub,Sub,Get (retry topic: its group Sub,Get)
//	SEND_MESSAGE (10)             topic Pub; retry topic: group "group" (else the topic's group) Sub
//	SEND_MESSAGE_V2 (310), SEND_BATCH_MESSAGE (320)  the same with "b" and "a"
//	RECALL_MESSAGE (370), END_TRANSACTION (37, when topic is given)  topic Pub
//	CONSUMER_SEND_MSG_BACK (36)   group Sub
//	PULL_MESSAGE (11)             topic Sub (not a retry topic), consumerGroup Sub
//	QUERY_MESSAGE (12)            topic Sub,Get
//	HEART_BEAT (34)               each consumer group Sub, each topic it subscribes Sub
//	UNREGISTER_CLIENT (35)        consumerGroup Sub (when given)
//	GET_CONSUMER_LIST_BY_GROUP (38)  consumerGroup Sub,Get
//	QUERY_CONSUMER_OFFSET (14)    topic Sub,Get (not a retry topic), consumerGroup Sub,Get
//	UPDATE_CONSUMER_OFFSET (15)   topic Sub,Update (not a retry topic), consumerGroup Sub,Update
//	LOCK_BATCH_MQ (41), UNLOCK_BATCH_MQ (42)  body's consumerGroup Sub, each queue's topic Sub
//
// A field the request lacks is Java's null: the switch's cases name the
// resource "null" (refused "... access Topic:null from ...", covered only
// by "*" or "Type:*" entries), an annotated field is left out (a header
// without any asks nothing, or its cluster), as Java's builder reads them.
// Java's header decoder logs a missing @CFNotNull field and goes on; only
// a header whose checkFields throws fails the builder, answered
// NO_PERMISSION "parse authorization context error." after
// authentication, authorization whitelist or not (headerChecks). So does a
// heartbeat or lock body that is not JSON.
//
// Difference from Java: a consumer group or topic missing from a
// heartbeat's or lock body's entries is named "" here, null in Java.

import (
	"errors"
	"strings"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// errParseContext is Java's refusal of a request whose body or header
// its builder cannot read.
var errParseContext = &auth.Denied{Msg: "parse authorization context error."}

// authField is an annotated header field: its resource type and the
// splitter of a list ("" for one value). orEmpty marks a field the Java
// header initialises to "": a missing one names the resource "".
type authField struct {
	name     string
	typ      auth.ResourceType
	splitter string
	orEmpty  bool
}

// authAction is a header's @RocketMQAction and its annotated fields.
type authAction struct {
	cluster bool
	actions []auth.Action
	fields  []authField
}

var (
	aPub    = []auth.Action{auth.ActionPub}
	aSub    = []auth.Action{auth.ActionSub}
	aGet    = []auth.Action{auth.ActionGet}
	aUpdate = []auth.Action{auth.ActionUpdate}
	aCreate = []auth.Action{auth.ActionCreate}
	aDelete = []auth.Action{auth.ActionDelete}
)

func fT(name string) authField { return authField{name: name, typ: auth.ResourceTopic} }
func fG(name string) authField { return authField{name: name, typ: auth.ResourceGroup} }
func fC(name string) authField { return authField{name: name, typ: auth.ResourceCluster} }

// authAnnotated are 5.3.3's annotated request headers, by code, their
// fields in declaration order.
var authAnnotated = map[remoting.RequestCode]authAction{
	remoting.AckMessage:                      {actions: aSub, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.ChangeMessageInvisibletime:      {actions: aSub, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.CheckRocksdbCqWriteProgress:     {actions: aGet, fields: []authField{fT("topic")}},
	remoting.CheckTransactionState:           {actions: aPub, fields: []authField{fT("topic")}},
	remoting.CloneGroupOffset:                {actions: aUpdate, fields: []authField{fG("destGroup"), fT("topic")}},
	remoting.ConsumeMessageDirectly:          {actions: aSub, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.UpdateAndCreateTopicList:        {actions: aCreate},
	remoting.UpdateAndCreateTopic:            {actions: aCreate, fields: []authField{fT("topic")}},
	remoting.DeleteSubscriptiongroup:         {actions: aDelete, fields: []authField{fG("groupName")}},
	remoting.DeleteTopicInBroker:             {actions: aDelete, fields: []authField{fT("topic")}},
	remoting.GetBrokerMemberGroup:            {actions: aGet, fields: []authField{fC("clusterName")}},
	remoting.GetConsumeStats:                 {actions: aGet, fields: []authField{fG("consumerGroup"), fT("topic"), {name: "topicList", typ: auth.ResourceTopic, splitter: ";"}}},
	remoting.GetConsumerConnectionList:       {actions: aGet, fields: []authField{fG("consumerGroup")}},
	remoting.GetConsumerRunningInfo:          {actions: aGet, fields: []authField{fG("consumerGroup")}},
	remoting.InvokeBrokerToGetConsumerStatus: {actions: aGet, fields: []authField{fT("topic"), fG("group")}},
	remoting.GetEarliestMsgStoretime:         {actions: aGet, fields: []authField{fT("topic")}},
	remoting.GetMaxOffset:                    {actions: aGet, fields: []authField{fT("topic")}},
	remoting.GetMinOffset:                    {actions: aGet, fields: []authField{fT("topic")}},
	remoting.GetSubscriptiongroupConfig:      {actions: aGet, fields: []authField{fG("group")}},
	remoting.GetTopicConfig:                  {actions: aGet, fields: []authField{fT("topic")}},
	remoting.GetTopicStatsInfo:               {actions: aGet, fields: []authField{fT("topic")}},
	remoting.Notification:                    {actions: aSub, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.NotifyConsumerIdsChanged:        {actions: aSub, fields: []authField{fG("consumerGroup")}},
	remoting.PeekMessage:                     {actions: aSub, fields: []authField{fT("topic"), fG("consumerGroup")}},
	remoting.PollingInfo:                     {actions: aGet, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.PopMessage:                      {actions: aSub, fields: []authField{fG("consumerGroup"), fT("topic")}},
	remoting.QueryConsumeQueue:               {actions: aGet, fields: []authField{fT("topic"), fG("consumerGroup")}},
	remoting.QueryConsumeTimeSpan:            {actions: aGet, fields: []authField{fT("topic"), fG("group")}},
	remoting.QueryCorrectionOffset:           {actions: aGet, fields: []authField{{name: "filterGroups", typ: auth.ResourceGroup, splitter: ","}, fG("compareGroup"), fT("topic")}},
	remoting.QuerySubscriptionByConsumer:     {actions: aGet, fields: []authField{fG("group"), fT("topic")}},
	remoting.QueryTopicConsumeByWho:          {actions: aGet, fields: []authField{fT("topic")}},
	remoting.QueryTopicsByConsumer:           {actions: aGet, fields: []authField{fG("group")}},
	remoting.PushReplyMessageToClient:        {actions: aSub, fields: []authField{fG("producerGroup"), fT("topic")}},
	remoting.InvokeBrokerToResetOffset:       {actions: aUpdate, fields: []authField{fG("group"), fT("topic")}},
	remoting.ResumeCheckHalfMessage:          {actions: aUpdate, fields: []authField{fT("topic")}},
	remoting.SearchOffsetByTimestamp:         {actions: aGet, fields: []authField{fT("topic")}},
	remoting.UpdateAndGetGroupForbidden:      {actions: aUpdate, fields: []authField{fG("group"), fT("topic")}},
	remoting.ViewMessageById:                 {actions: aGet, fields: []authField{fT("topic")}},
	// Cluster resources: the broker's cluster unless a cluster field names one.
	remoting.AddBroker:                   {cluster: true, actions: aUpdate},
	remoting.RemoveBroker:                {cluster: true, actions: aUpdate, fields: []authField{fC("brokerClusterName")}},
	remoting.ExchangeBrokerHaInfo:        {cluster: true, actions: aUpdate},
	remoting.ExportRocksdbConfigToJson:   {cluster: true, actions: aGet},
	remoting.GetAllProducerInfo:          {cluster: true, actions: aGet},
	remoting.GetBrokerConsumeStats:       {cluster: true, actions: aGet},
	remoting.GetProducerConnectionList:   {cluster: true, actions: aGet},
	remoting.NotifyBrokerRoleChanged:     {cluster: true, actions: aUpdate},
	remoting.NotifyMinBrokerIdChange:     {cluster: true, actions: aUpdate},
	remoting.ResetMasterFlushOffset:      {cluster: true, actions: aUpdate},
	remoting.ViewBrokerStatsData:         {cluster: true, actions: aGet},
	remoting.AuthCreateUser:              {cluster: true, actions: aUpdate},
	remoting.AuthUpdateUser:              {cluster: true, actions: aUpdate},
	remoting.AuthDeleteUser:              {cluster: true, actions: aUpdate},
	remoting.AuthGetUser:                 {cluster: true, actions: aGet},
	remoting.AuthListUser:                {cluster: true, actions: aGet},
	remoting.AuthCreateAcl:               {cluster: true, actions: aUpdate},
	remoting.AuthUpdateAcl:               {cluster: true, actions: aUpdate},
	remoting.AuthDeleteAcl:               {cluster: true, actions: aUpdate},
	remoting.AuthGetAcl:                  {cluster: true, actions: aGet},
	remoting.AuthListAcl:                 {cluster: true, actions: aGet},
	remoting.ControllerAlterSyncStateSet: {cluster: true, actions: aUpdate},
	remoting.ControllerElectMaster:       {cluster: true, actions: aUpdate, fields: []authField{{name: "clusterName", typ: auth.ResourceCluster, orEmpty: true}}},
	remoting.ControllerGetReplicaInfo:    {cluster: true, actions: aGet},
	remoting.CleanBrokerData:             {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.ControllerApplyBrokerId:     {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.ControllerGetNextBrokerId:   {cluster: true, actions: aGet, fields: []authField{fC("clusterName")}},
	remoting.ControllerRegisterBroker:    {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.AddWritePermOfBroker:        {cluster: true, actions: aUpdate},
	remoting.BrokerHeartbeat:             {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.DeleteKvConfig:              {cluster: true, actions: aUpdate},
	remoting.DeleteTopicInNamesrv:        {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.GetKvConfig:                 {cluster: true, actions: aGet},
	remoting.GetKvlistByNamespace:        {cluster: true, actions: aGet},
	remoting.PutKvConfig:                 {cluster: true, actions: aUpdate},
	remoting.QueryDataVersion:            {cluster: true, actions: aGet, fields: []authField{fC("clusterName")}},
	remoting.RegisterBroker:              {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.RegisterTopicInNamesrv:      {cluster: true, actions: aUpdate},
	remoting.UnregisterBroker:            {cluster: true, actions: aUpdate, fields: []authField{fC("clusterName")}},
	remoting.WipeWritePermOfBroker:       {cluster: true, actions: aUpdate},
}

// headerChecks are the checkFields of annotated request headers that
// throw, by code: a request they refuse fails Java's builder.
var headerChecks = map[remoting.RequestCode]func(cmd *remoting.Command) bool{
	// CreateTopicRequestHeader: TopicFilterType.valueOf(topicFilterType).
	remoting.UpdateAndCreateTopic: func(cmd *remoting.Command) bool {
		return protocol.TopicFilterType(cmd.ExtString("topicFilterType")).Valid()
	},
}

// Contexts are the questions a request asks: its user (ext field
// AccessKey), from sourceIP, for the resources of its code (cluster is
// the broker's or proxy's cluster, for the cluster resources); none for a
// request without ext fields, as Java builds none. A header or body
// Java's builder cannot read is an *auth.Denied "parse authorization
// context error.".
func Contexts(cmd *remoting.Command, sourceIP, cluster string) ([]auth.Context, error) {
	if len(cmd.ExtFields) == 0 {
		return nil, nil
	}
	user, hasUser := cmd.Ext("AccessKey")
	b := &contextBuilder{base: auth.Context{Username: user, HasUser: hasUser, SourceIP: sourceIP}}
	if !b.fromSwitch(cmd) {
		b.fromAnnotation(cmd, cluster)
	}
	return b.out, b.err
}

// contextBuilder collects a request's contexts.
type contextBuilder struct {
	base auth.Context
	out  []auth.Context
	err  error
}

func (b *contextBuilder) add(r auth.Resource, actions ...auth.Action) {
	c := b.base
	c.Resource, c.Actions = r, actions
	b.out = append(b.out, c)
}

func isRetry(topic string) bool { return strings.HasPrefix(topic, auth.RetryGroupPrefix) }

// extField is a header field as Java's builder reads it: ok is false for
// a missing one, Java's null.
type extField struct {
	v  string
	ok bool
}

func (f extField) topic() auth.Resource { return auth.Topic(f.v).NullNamed(f.ok) }
func (f extField) group() auth.Resource { return auth.Group(f.v).NullNamed(f.ok) }
func (f extField) blank() bool          { return strings.TrimSpace(f.v) == "" }

// fromSwitch is the builder's switch; false for a code it has no case for.
func (b *contextBuilder) fromSwitch(cmd *remoting.Command) bool {
	ext := func(k string) extField {
		v, ok := cmd.Ext(k)
		return extField{v, ok}
	}
	switch remoting.RequestCode(cmd.Code) {
	case remoting.GetRouteinfoByTopic:
		if t := ext("topic"); isRetry(t.v) {
			b.add(t.group(), auth.ActionSub, auth.ActionGet)
		} else {
			b.add(t.topic(), auth.ActionPub, auth.ActionSub, auth.ActionGet)
		}
	case remoting.SendMessage:
		b.send(ext("topic"), ext("group"))
	case remoting.SendMessageV2, remoting.SendBatchMessage:
		b.send(ext("b"), ext("a"))
	case remoting.RecallMessage:
		b.add(ext("topic").topic(), auth.ActionPub)
	case remoting.EndTransaction:
		if t := ext("topic"); !t.blank() {
			b.add(t.topic(), auth.ActionPub)
		}
	case remoting.ConsumerSendMsgBack:
		b.add(ext("group").group(), auth.ActionSub)
	case remoting.PullMessage:
		b.topicUnlessRetry(ext("topic"), auth.ActionSub)
		b.add(ext("consumerGroup").group(), auth.ActionSub)
	case remoting.QueryMessage:
		b.add(ext("topic").topic(), auth.ActionSub, auth.ActionGet)
	case remoting.HeartBeat:
		b.heartbeat(cmd.Body)
	case remoting.UnregisterClient:
		if g := ext("consumerGroup"); !g.blank() {
			b.add(g.group(), auth.ActionSub)
		}
	case remoting.GetConsumerListByGroup:
		b.add(ext("consumerGroup").group(), auth.ActionSub, auth.ActionGet)
	case remoting.QueryConsumerOffset:
		b.topicUnlessRetry(ext("topic"), auth.ActionSub, auth.ActionGet)
		b.add(ext("consumerGroup").group(), auth.ActionSub, auth.ActionGet)
	case remoting.UpdateConsumerOffset:
		b.topicUnlessRetry(ext("topic"), auth.ActionSub, auth.ActionUpdate)
		b.add(ext("consumerGroup").group(), auth.ActionSub, auth.ActionUpdate)
	case remoting.LockBatchMq, remoting.UnlockBatchMq:
		b.lockBatch(cmd.Body)
	default:
		return false
	}
	return true
}

func (b *contextBuilder) send(topic, group extField) {
	if !isRetry(topic.v) {
		b.add(topic.topic(), auth.ActionPub)
		return
	}
	if !group.blank() {
		b.add(group.group(), auth.ActionSub)
	} else {
		b.add(topic.group(), auth.ActionSub)
	}
}

func (b *contextBuilder) topicUnlessRetry(topic extField, actions ...auth.Action) {
	if !isRetry(topic.v) {
		b.add(topic.topic(), actions...)
	}
}

func (b *contextBuilder) heartbeat(body []byte) {
	hb, err := protocol.DecodeHeartbeatData(body)
	if hb == nil || err != nil {
		b.err = errors.Join(errParseContext, err)
		return
	}
	for _, c := range hb.ConsumerDataSet {
		b.add(auth.Group(c.GroupName), auth.ActionSub)
		for _, s := range c.SubscriptionDataSet {
			b.topicUnlessRetry(extField{s.Topic, true}, auth.ActionSub)
		}
	}
}

func (b *contextBuilder) lockBatch(body []byte) {
	lb, err := protocol.DecodeLockBatchRequestBody(body)
	if lb == nil || err != nil {
		b.err = errors.Join(errParseContext, err)
		return
	}
	b.add(auth.Group(lb.ConsumerGroup), auth.ActionSub)
	for _, q := range lb.MQSet {
		b.topicUnlessRetry(extField{q.Topic, true}, auth.ActionSub)
	}
}

// fromAnnotation is buildContextByAnnotation.
func (b *contextBuilder) fromAnnotation(cmd *remoting.Command, cluster string) {
	code := remoting.RequestCode(cmd.Code)
	a, ok := authAnnotated[code]
	if !ok {
		return
	}
	if check := headerChecks[code]; check != nil && !check(cmd) {
		b.err = errParseContext
		return
	}
	for _, f := range a.fields {
		v, ok := cmd.Ext(f.name)
		if !ok && !f.orEmpty {
			continue
		}
		values := []string{v}
		if f.splitter != "" {
			values = strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(f.splitter, r) })
		}
		for _, name := range values {
			if f.typ == auth.ResourceTopic && isRetry(name) {
				b.add(auth.Group(name), a.actions...)
			} else {
				b.add(auth.Resource{Type: f.typ, Name: name, Pattern: auth.PatternLiteral}, a.actions...)
			}
		}
	}
	if len(b.out) == 0 && a.cluster {
		b.add(auth.Cluster(cluster), a.actions...)
	}
}
