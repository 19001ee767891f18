package net.commoninternet.ccci.testing.helpers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.Optional;
import net.commoninternet.ccci.extensions.results.RunHistory;

/**
 * Helper process: appends one run ({@code run_id} args[2], level args[3]) to recipe args[1]'s
 * history under the runs folder args[0], with the real {@link RunHistory}. It prints
 * {@code appending <pid>} just before the append. With {@code pause} (args[4]) it stops once it
 * holds the lock and has read the history, prints {@code read <n runs>}, and goes on to write
 * when a line arrives on its stdin. At the end it prints {@code appended after <previous run id|none>}.
 */
public final class HistoryAppender {

    public static void main(String[] args) throws Exception {
        ObjectNode entry = new ObjectMapper().createObjectNode();
        entry.put("recipe", args[1]).put("run_id", args[2]).put("line", "default").put("level", Integer.parseInt(args[3]))
                .put("ref", "ref-" + args[2]);
        boolean pause = args.length > 4 && args[4].equals("pause");
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("appending " + ProcessHandle.current().pid());
        System.out.flush();
        Optional<com.fasterxml.jackson.databind.JsonNode> previous = new RunHistory(Path.of(args[0])).append(entry, read -> {
            if (pause) {
                System.out.println("read " + read);
                System.out.flush();
                stdin.readLine();
            }
        });
        System.out.println("appended after " + previous.map(p -> p.get("run_id").asText()).orElse("none"));
        System.out.flush();
    }
}
