package net.commoninternet.ccci.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test instrumentation put first on a run's PATH: {@code git} and {@code docker} shims that
 * record, for every such child the run starts, the {@code ABRA_DIR} and {@code CCCI_*_FILE}
 * values it was given and whether those existed at that moment, then run the real binary.
 * With {@code CCCI_TEST_DEPLOY_GATE} set, {@code docker stack deploy} runs for real, logs
 * {@code deploy held} and then waits until the gate file exists: the run is held inside its
 * deploy, with its stack created, until the test opens the gate. With {@code CCCI_TEST_DEPLOY_GATE_AT=n}
 * as well, the deploys before the n-th (counted across the children sharing the gate) pass, so a
 * run can be held inside its upgrade's redeploy. While held it ignores SIGTERM,
 * so a TERM to the process group reaches the run's funnel before its child dies: the funnel, not
 * a failed child, is what stops the run (the other order is proven in LifetimeGuardsTest).
 */
public final class ChildShims {

    static final String LOG = "CCCI_TEST_CHILDREN_LOG";
    public static final String GATE = "CCCI_TEST_DEPLOY_GATE";
    /** Which deploy the gate holds (1, the first, when unset). */
    public static final String GATE_AT = "CCCI_TEST_DEPLOY_GATE_AT";

    private static final String SCRIPT = """
            #!/bin/sh
            name=$(basename "$0")
            {
              printf '%s %s %s ABRA_DIR=%s recipes=%s' "$name" "$1" "$2" "${ABRA_DIR:-unset}" \\
                "$([ -d "${ABRA_DIR:-/nonexistent}/recipes" ] && echo present || echo missing)"
              for v in CCCI_DEPLOYS_FILE CCCI_OPSTATE_FILE CCCI_DEPS_FILE CCCI_DEPSKIP_FILE; do
                eval "f=\\${$v:-unset}"
                printf ' %s=%s' "$v" "$f"
              done
              printf ' deploys=%s\\n' "$(cat "${CCCI_DEPLOYS_FILE:-/nonexistent}" 2>/dev/null || echo missing)"
            } >> "$CCCI_TEST_CHILDREN_LOG"
            case "$name" in git) real=@GIT@ ;; *) real=@DOCKER@ ;; esac
            if [ "$name $1 $2" = "docker stack deploy" ] && [ -n "${CCCI_TEST_DEPLOY_GATE:-}" ]; then
              n=$(( $(cat "$CCCI_TEST_DEPLOY_GATE.count" 2>/dev/null || echo 0) + 1 ))
              echo "$n" > "$CCCI_TEST_DEPLOY_GATE.count"
              [ "$n" -lt "${CCCI_TEST_DEPLOY_GATE_AT:-1}" ] && exec "$real" "$@"
              "$real" "$@" || exit $?
              echo "deploy held" >> "$CCCI_TEST_CHILDREN_LOG"
              trap '' TERM
              while [ ! -e "$CCCI_TEST_DEPLOY_GATE" ]; do sleep 0.1; done
              exit 0
            fi
            exec "$real" "$@"
            """;

    private ChildShims() {
    }

    /** Writes the shims into {@code bin} and returns the environment that puts them first on PATH. */
    public static Map<String, String> install(Path bin, Path log) throws IOException, InterruptedException {
        Files.createDirectories(bin);
        String script = SCRIPT.replace("@GIT@", which("git")).replace("@DOCKER@", which("docker"));
        for (String name : List.of("git", "docker")) {
            Path shim = bin.resolve(name);
            Files.writeString(shim, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put(LOG, log.toString());
        return env;
    }

    private static String which(String command) throws IOException, InterruptedException {
        Process which = new ProcessBuilder("sh", "-c", "command -v " + command).start();
        String path = new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (which.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException(command + " is not on PATH");
        }
        return path;
    }
}
