package org.rmqgo.fastjson;

/**
 * One kind of body: the exact call the Java broker or name server of a line
 * makes on those bytes. {@code body} is null for an empty body, as Java's
 * frame decoder leaves a zero-length body.
 */
@FunctionalInterface
public interface Decoder {
    Object decode(byte[] body) throws Exception;
}
