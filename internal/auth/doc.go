// Package auth is ACL 2.0 of the Java 5.3.3 broker (module rocketmq-auth):
// users and their passwords (authentication), ACLs of policies that allow
// or deny actions on resources from source addresses (authorization), and
// the users' and ACLs' admin operations with Java's messages. What a
// request asks for (its user, signature, resources and actions) is the
// broker's to say; this package keeps the users and ACLs and decides.
//
// Names as the Java enums spell them (wire format in the admin bodies and
// in resource keys; do not change):
//
//	user type     Super, Normal          (UserType)
//	user status   enable, disable        (UserStatus)
//	resource type Any, Cluster, Namespace, Topic, Group  (ResourceType)
//	pattern       LITERAL "Topic:t", PREFIXED "Topic:t*", ANY "Topic:*"; "*" is any resource
//	action        All, Any, Pub, Sub, Create, Update, Delete, Get, List (Action)
//	decision      Allow, Deny            (Decision)
//	policy type   Custom, Default        (PolicyType)
//	subject       "User:<username>"      (Subject.getSubjectKey)
//
// Names are read without regard to case (getByName); an unknown action is
// dropped, an unknown name of the rest reads as absent.
//
// The files:
//
//	model.go     users, resources, actions and decisions, and the Denied error
//	policy.go    Acl, Policy, PolicyEntry: a subject's policies and their order
//	javasort.go  Java's List.sort for short lists, which the policy order depends on
//	evaluate.go  Authenticate and Authorize a request (Signed, Context)
//	stateful.go  the Stateful* strategies: answers kept per connection for
//	             statefulAuthenticationCacheExpiredSecond (AnswerCache)
//	manage.go    the admin operations on users and ACLs, with Java's checks
//	migrate.go   MigrateV1: ACL 1.0 accounts into users and ACLs (AuthMigrator)
//	body.go      the admin bodies UserInfo and AclInfo
//	stored.go    the values kept in the users and acls databases (fastjson2's JSON)
//	store.go     Store: the users and ACLs in config/users and config/acls (RocksDB)
package auth
