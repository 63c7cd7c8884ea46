#!/bin/sh
# Makes a CA and a server certificate for compat/tls-suite.sh (TLS_CERTS=1)
# with openssl (POSIX sh), unless DIR already holds them:
#
#   sh compat/tls-certs.sh DIR
#
# DIR/ca.pem          the CA's certificate (CN=rmqgo compat CA), trusted by the clients
# DIR/server.pem      the servers' certificate, signed by the CA, for localhost and 127.0.0.1
# DIR/server.key      its RSA 2048 key, PKCS#8 PEM, unencrypted (Netty's SslContextBuilder
#                     reads PKCS#8 only)

set -u
DIR=${1:?usage: $0 DIR}
[ -s "$DIR/ca.pem" ] && [ -s "$DIR/server.pem" ] && [ -s "$DIR/server.key" ] && exit 0
command -v openssl >/dev/null 2>&1 || { echo "tls-certs: openssl is needed" >&2; exit 1; }
mkdir -p "$DIR"
cd "$DIR" || exit 1
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=rmqgo compat CA" \
  -keyout ca.key -out ca.pem 2>/dev/null &&
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null &&
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' >server.ext &&
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
    -extfile server.ext -out server.pem 2>/dev/null || { echo "tls-certs: openssl failed" >&2; exit 1; }
head -1 server.key | grep -q 'BEGIN PRIVATE KEY' || { echo "tls-certs: server.key is not PKCS#8" >&2; exit 1; }
