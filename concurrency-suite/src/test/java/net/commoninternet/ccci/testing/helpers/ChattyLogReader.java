package net.commoninternet.ccci.testing.helpers;

import java.time.Instant;
import java.util.List;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.ServiceLog;

/**
 * Helper process with a small heap (the test gives it -Xmx64m): reads one service's whole log the
 * way a tier's service log is read and rendered, and says how big the result is.
 * Usage: {@code ChattyLogReader <service id> <stack>}.
 */
public final class ChattyLogReader {

    private ChattyLogReader() {
    }

    public static void main(String[] args) throws Exception {
        try (DockerEngine docker = DockerEngine.connect()) {
            ServiceLog.Window window = ServiceLog.read(docker.client(), args[0], args[1], Instant.EPOCH, Instant.now());
            String text = window.render(List.of());
            System.out.println("rendered " + text.length() + " chars, " + window.lines().size() + " lines, cut " + window.cut());
        }
    }
}
