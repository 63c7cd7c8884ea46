// Package acl is ACL 1.0 of the Java broker (PlainPermissionManager,
// PlainAccessValidator): the accounts of plain_acl.yml, the signature a
// client's AclClientRPCHook puts on every request, and the check of a
// request's resources against the account's permissions, with Java's
// messages. What a request needs (which topics and groups, with which
// permission, and whether it is an admin request) is the broker's to say;
// this package reads files, signs and decides.
//
// plain_acl.yml (on-disk format, Java's keys; do not change):
//
//	globalWhiteRemoteAddresses:      # addresses let in with no signature
//	- 10.10.103.*
//	accounts:
//	- accessKey: RocketMQ            # more than 6 characters
//	  secretKey: 12345678            # more than 6 characters
//	  whiteRemoteAddress:            # this account's addresses, no signature
//	  admin: false                   # may send the admin codes
//	  defaultTopicPerm: DENY         # DENY, PUB, SUB, PUB|SUB (SUB|PUB)
//	  defaultGroupPerm: SUB
//	  topicPerms:
//	  - topicA=DENY
//	  groupPerms:
//	  - groupA=DENY
//	dataVersion:
//	- counter: 1
//	  timestamp: 1630000000000
//
// The files:
//
//	acl.go      permissions, the Denied error, retry-topic names
//	config.go   plain_acl.yml read into Accounts (ReadFile)
//	address.go  the remote address patterns (whiteRemoteAddress, globalWhiteRemoteAddresses)
//	check.go    Table: the compiled accounts, the signature and the permission check
//	write.go    an admin's changes written back into the file as Java writes them
//	client.go   a client's signature (AclClientRPCHook) and its keys in tools.yml
package acl
