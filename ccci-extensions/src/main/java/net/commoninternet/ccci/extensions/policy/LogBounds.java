package net.commoninternet.ccci.extensions.policy;

import static net.commoninternet.ccci.extensions.policy.ComposeRules.accepting;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.bool;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.keys;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.oneOf;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;
import net.commoninternet.ccci.lifecycle.RunBudget;

/**
 * A service's log on the host's disk: the engine writes every line a container prints to a file of
 * its own, and without a {@code max-size} that file grows as long as the container prints (the
 * engine's default). So ccci sets the rotation on every service it deploys, from the host's
 * {@link RunBudget.Logs}: at most {@code max-file} files of {@code max-size} each per container. A
 * recipe may only lower them: a larger value is lowered to the host's, and said in the run's log
 * (clamped, not refused: a recipe's own rotation is a real recipe's habit, and the bound holds
 * either way). A driver other than the engine's own files ({@code json-file}, {@code local}) makes
 * the engine dial or write where the recipe says, and is refused ({@link #RULE}); so is a buffer
 * of the engine's memory larger than its default.
 */
final class LogBounds {

    /** The engine's own default ring buffer for {@code mode: non-blocking}: its memory, per container. */
    static final long MAX_BUFFER = 1L << 20;

    private LogBounds() {
    }

    private static final Rule SIZE = accepting(value -> value.isValueNode() && RunBudget.bytes(value.asText()) > 0,
            "a size such as 10m");
    private static final Rule FILES = accepting(value -> value.isValueNode() && value.asText().matches("[1-9]\\d{0,5}"),
            "a whole number of files such as 3");

    /** Only the engine's own log files, rotated: any other driver sends the output where the recipe chooses. */
    static final Rule RULE = (judging, at, logging) -> {
        String driver = logging.path("driver").asText("json-file");
        if (!driver.equals("json-file") && !driver.equals("local")) {
            judging.refuse(at.at("driver"), driver, "sends its output with the logging driver", "makes the engine dial or"
                    + " write to a place the recipe chooses, from the host's own network and file system", "drop logging:"
                    + " the engine keeps the service's log, and ccci reads it from there.");
            return;
        }
        keys(Map.of("driver", text(), "options", keys(Map.of("max-size", SIZE, "max-file", FILES, "compress", bool(),
                "mode", oneOf("blocking", "non-blocking"), "max-buffer-size", bufferSize())))).judge(judging, at, logging);
    };

    private static Rule bufferSize() {
        return (judging, at, value) -> {
            long bytes = value.isValueNode() ? RunBudget.bytes(value.asText()) : -1;
            if (bytes <= 0 || bytes > MAX_BUFFER) {
                judging.refuse(at, ComposeRules.shown(value), "buffers its log in the engine's memory up to", "takes memory"
                        + " of the engine itself, outside every run's share", "drop max-buffer-size (the engine's default is "
                        + RunBudget.shown(MAX_BUFFER) + ") or set at most 1m.");
            }
        };
    }

    /**
     * Sets the host's rotation on {@code service} (a judged service of the deployable copy): its
     * driver if it names none, {@code max-size} and {@code max-file} where it sets none or more.
     * Returns what was lowered, for the run's log.
     */
    static List<String> bound(ObjectNode service, RunBudget.Logs logs) {
        ObjectNode logging = service.withObject("/logging");
        if (!logging.has("driver")) {
            logging.put("driver", "json-file");
        }
        ObjectNode options = logging.withObject("/options");
        List<String> lowered = new ArrayList<>();
        long size = options.has("max-size") ? RunBudget.bytes(options.path("max-size").asText()) : -1;
        if (size <= 0 || size > logs.maxSize()) {
            if (size > logs.maxSize()) {
                lowered.add("max-size " + options.path("max-size").asText() + " to " + written(logs.maxSize()));
            }
            options.put("max-size", written(logs.maxSize()));
        }
        long files = options.has("max-file") ? parseFiles(options.path("max-file")) : -1;
        if (files <= 0 || files > logs.maxFiles()) {
            if (files > logs.maxFiles()) {
                lowered.add("max-file " + options.path("max-file").asText() + " to " + logs.maxFiles());
            }
            options.put("max-file", Integer.toString(logs.maxFiles()));
        }
        return lowered;
    }

    private static long parseFiles(JsonNode value) {
        try {
            return Long.parseLong(value.asText());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A size as the engine's log options take it: {@code 10m}, {@code 64k}, or bytes. */
    static String written(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "g";
        }
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        return bytes % 1024 == 0 ? (bytes >> 10) + "k" : Long.toString(bytes);
    }
}
