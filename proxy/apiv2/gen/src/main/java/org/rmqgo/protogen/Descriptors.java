package org.rmqgo.protogen;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the FileDescriptorSet of rocketmq-proto's files (apache/rocketmq/v2/
 * definition.proto, service.proto, admin.proto) and the files they import, each
 * after its imports, to the path given: what protoc would hand its plugins.
 */
public final class Descriptors {
    public static void main(String[] args) throws Exception {
        Map<String, FileDescriptor> files = new LinkedHashMap<>();
        add(apache.rocketmq.v2.MQService.getDescriptor(), files);
        add(apache.rocketmq.v2.MQAdmin.getDescriptor(), files);
        FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
        for (FileDescriptor f : files.values()) {
            set.addFile(f.toProto());
        }
        try (OutputStream out = new FileOutputStream(args[0])) {
            set.build().writeTo(out);
        }
    }

    private static void add(FileDescriptor f, Map<String, FileDescriptor> files) {
        if (files.containsKey(f.getName())) {
            return;
        }
        for (FileDescriptor dep : f.getDependencies()) {
            add(dep, files);
        }
        files.put(f.getName(), f);
    }
}
