package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.SecretSpec;
import com.github.dockerjava.api.model.ServiceSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipe under test is untrusted (docs/security.md): an adversarial battery of real runs, one
 * recipe repository per case made here, all in one real {@code mvn test -Drecipe=a,b,...} on the
 * local swarm. Each case is refused with its one sentence before anything of its app exists on
 * the engine (the engine's own event stream over the command names none of its objects), nothing
 * is written outside the sandbox (a host folder with a marker stays as it was), a host variable
 * never reaches a compose, a warm app of the run-app shape next to the runs is left alone by
 * their janitors, and the operator's allowance lets its recipe deploy, with its warning.
 */
@RealEngine
class UntrustedRecipeTest {

    private static final Pattern APP = Pattern.compile("== ccci run \\S+ \\(pid \\d+\\): recipe (\\S+) .* app (\\S+), ABRA_DIR");
    /** A warm app's name that has the run-app shape: no janitor may probe or reap it. */
    private static final String WARM = "warm-abc123.ci.commoninternet.net";
    private static final String OTHER_SECRET = "i11-other_ci_s_v1";
    private static final String HOST_VALUE = "i11HostOnlyValue7f3a";
    /** A line of a host file a recipe names as its env_file: the docker CLI would quote it in its error. */
    private static final String HOST_LINE = "i22 the host's own env line, not KEY=VALUE";

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothing() throws Exception {
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
        try (DockerEngine docker = DockerEngine.connect()) {
            new StackTeardown(docker.client()).teardown(AppNaming.stackName(WARM));
            new StackTeardown(docker.client()).teardown("i11-other");
        }
    }

    private Path recipe(String name, String compose, String envSample) throws IOException {
        Path dir = Files.createDirectories(sandbox.resolve("recipes").resolve(name));
        if (compose != null) {
            Files.writeString(dir.resolve("compose.yml"), compose.replace("IMAGE", LocalImages.BUSYBOX), StandardCharsets.UTF_8);
        }
        Files.writeString(dir.resolve(".env.sample"), "TYPE=" + name + "\n" + envSample, StandardCharsets.UTF_8);
        return dir;
    }

    private static String web(String extra) {
        return """
                version: "3.8"
                services:
                  app:
                    image: IMAGE
                    command: ["sh", "-c", "mkdir -p /srv && echo ok > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                    networks: [proxy]
                """ + extra + """
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                networks:
                  proxy:
                    external: true
                """;
    }

    @Test
    void everyWayARecipeReachesTheHostIsRefusedBeforeItsAppExistsAndTheAllowanceCasePassesWithItsWarning()
            throws Exception {
        Path host = Files.createDirectories(sandbox.resolve("host"));
        Files.writeString(host.resolve("marker"), "the host's own\n");
        Path outsideCompose = Files.writeString(host.resolve("compose.yml"), web("").replace("IMAGE", LocalImages.BUSYBOX));
        Map<String, String> refusals = new LinkedHashMap<>();

        // with a generated secret: refused before it is made (the policy runs in newApp, not only before the deploy)
        recipe("i11sock", web("    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n    secrets: [db_password]\n")
                + "secrets:\n  db_password:\n    external: true\n    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}\n",
                "SECRET_DB_PASSWORD_VERSION=v1\n");
        refusals.put("i11sock", "i11sock: service app mounts the host path /var/run/docker.sock (volumes)");
        recipe("i11root", web("    volumes: [\"/:/host\"]\n"), "");
        refusals.put("i11root", "i11root: service app mounts the host path / (volumes)");
        recipe("i11caps", web("    cap_add: [SYS_ADMIN]\n"), "");
        refusals.put("i11caps", "i11caps: service app adds the capability SYS_ADMIN (cap_add)");
        recipe("i11hnet", web("").replace("networks: [proxy]", "networks: [proxy, hostnet]")
                + "  hostnet:\n    external: true\n    name: host\n", "");
        refusals.put("i11hnet", "i11hnet: network hostnet is the external network host (networks)");
        recipe("i11fsec", web("    secrets: [s]\n") + "secrets:\n  s:\n    file: " + host.resolve("marker") + "\n", "");
        refusals.put("i11fsec", "i11fsec: secret s is made from the file " + host.resolve("marker") + " (secrets)");
        recipe("i11xsec", web("    secrets: [s]\n") + "secrets:\n  s:\n    external: true\n    name: " + OTHER_SECRET + "\n", "");
        refusals.put("i11xsec", "i11xsec: secret s is the external object " + OTHER_SECRET + " (secrets)");
        // a value that would steer ccci's own docker CLI is the compose's data only: both deploy, and the CLI never
        // got it (a preloaded library that does not exist would make ld.so say so in every docker call's output)
        recipe("i11ldp", web("    environment: [\"LD_PRELOAD=${LD_PRELOAD}\"]\n"), "LD_PRELOAD=" + host.resolve("evil.so") + "\n");
        recipe("i11dkh", web("    environment: [\"DOCKER_HOST=${DOCKER_HOST}\"]\n"), "DOCKER_HOST=tcp://127.0.0.1:1\n");
        recipe("i11hvar", web("").replace("image: IMAGE", "image: \"ccci.local/i11-${I11_HOST_ONLY:-none}:1\""), "");
        refusals.put("i11hvar", "image ccci.local/i11-none:1 of service app is neither on this host nor pullable");
        Path overlay = recipe("i11ovl", web(""), "");
        Files.createSymbolicLink(overlay.resolve(".ccci"), host);
        refusals.put("i11ovl", "i11ovl: .ccci is a symbolic link to " + host + ", outside the recipe");
        Path linked = recipe("i11lnk", null, "");
        Files.createSymbolicLink(linked.resolve("compose.yml"), outsideCompose);
        refusals.put("i11lnk", "i11lnk: compose.yml is a symbolic link to " + outsideCompose + ", outside the recipe");
        recipe("i11climb", web("    volumes: [content:/srv]\n").replace("- \"traefik.enable=true\"",
                "- \"traefik.enable=true\"\n        - \"backupbot.backup=true\"\n        - \"backupbot.backup.path=/srv/../../etc\"")
                + "volumes:\n  content:\n", "");
        refusals.put("i11climb", "i11climb: service app has the label backupbot.backup.path=/srv/../../etc, a backup path"
                + " that climbs out with '..'");
        // round two (issue 22): what a denylist let through, each refused by the allowlist before anything exists
        recipe("i22log", web("    logging:\n      driver: gelf\n      options: {gelf-address: 'udp://127.0.0.1:12201'}\n"), "");
        refusals.put("i22log", "i22log: service app sends its output with the logging driver gelf (logging.driver)");
        recipe("i22alias", web("").replace("networks: [proxy]", "networks:\n      proxy:\n        aliases: [i11-other_app]"), "");
        refusals.put("i22alias", "i22alias: service app answers on the shared network proxy to the names [\"i11-other_app\"]"
                + " (networks.proxy.aliases)");
        recipe("i22label", web("").replace("- \"traefik.enable=true\"", "- \"traefik.enable=true\"\n"
                + "        - \"com.docker.stack.namespace=i11-other\""), "");
        refusals.put("i22label", "i22label: service app has the label com.docker.stack.namespace=i11-other (deploy.labels)");
        recipe("i22route", web("").replace("- \"traefik.enable=true\"", "- \"traefik.enable=true\"\n"
                + "        - \"traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`) || Host(`bank.example.com`)\""), "");
        refusals.put("i22route", "which can match requests for bank.example.com, a host other than the run's own domain");
        recipe("i22tcp", web("").replace("- \"traefik.enable=true\"", "- \"traefik.enable=true\"\n"
                + "        - \"traefik.tcp.routers.${STACK_NAME}.rule=HostSNI(`*`)\""), "");
        refusals.put("i22tcp", "which opens a TCP router, which takes a port of the proxy beyond the run's own domain");
        Path hostEnv = Files.writeString(host.resolve("host.env"), HOST_LINE + "\n");
        recipe("i22envf", web("    env_file: [" + hostEnv + "]\n"), "");
        refusals.put("i22envf", "i22envf: service app reads the env file " + hostEnv + " (env_file), which is outside the recipe");
        recipe("i22key", web("    credential_spec: {file: " + host.resolve("marker") + "}\n"), "");
        refusals.put("i22key", "i22key: service app sets {\"file\":\"" + host.resolve("marker") + "\"} (credential_spec), which"
                + " ccci does not know to be safe");
        recipe("i22pull", web("").replace("image: IMAGE", "image: \"169.254.169.254/latest/meta-data:1\""), "");
        refusals.put("i22pull", "i22pull: service app pulls the image 169.254.169.254/latest/meta-data:1 (image), which makes"
                + " the engine dial its registry, from the host's own network");
        recipe("i22fleet", web("").replace("    deploy:\n", "    deploy:\n      replicas: 6\n"), "");
        refusals.put("i22fleet", "i22fleet: service app asks for 6 (deploy.replicas), which takes more of the host than one"
                + " run's share");
        // the hostile service where a capped copy of the resolved compose would cut (its first and last MiB kept)
        String filler = "          " + "f".repeat(100) + "\n";
        String pad = "    environment:\n      PAD: |\n" + filler.repeat(1 << 14);
        recipe("i22cut", "version: \"3.8\"\nservices:\n  pad1:\n    image: IMAGE\n" + pad + "  evil:\n    image: IMAGE\n"
                + "    volumes: [\"/:/host\"]\n  pad2:\n    image: IMAGE\n" + pad, "");
        refusals.put("i22cut", "i22cut: service evil mounts the host path / (volumes)");
        Path allowedDir = Files.createDirectories(sandbox.resolve("allowed"));
        recipe("i11allow", web("    volumes: [\"" + allowedDir + ":/allowed:ro\"]\n"), "");

        long since = System.currentTimeMillis() / 1000;
        try (DockerEngine docker = DockerEngine.connect()) {
            // another stack's secret, and a live warm app whose name has the run-app shape
            docker.client().createSecretCmd(new SecretSpec().withName(OTHER_SECRET).withData("another stack's own value")
                    .withLabels(StackLabels.of("i11-other"))).exec();
            docker.client().createServiceCmd(new ServiceSpec().withName(AppNaming.stackName(WARM) + "_app")
                    .withLabels(StackLabels.of(AppNaming.stackName(WARM)))
                    .withTaskTemplate(new com.github.dockerjava.api.model.TaskSpec().withContainerSpec(
                            new com.github.dockerjava.api.model.ContainerSpec().withImage(LocalImages.BUSYBOX)
                                    .withCommand(List.of("sleep", "3600"))))).exec();
        }
        Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString(), "I11_HOST_ONLY", HOST_VALUE));
        List<String> names = new ArrayList<>(refusals.keySet());
        names.addAll(List.of("i11allow", "i11ldp", "i11dkh"));
        MavenRun run = MavenRun.start(sandbox.resolve("battery.log"), env, "-Drecipe=" + String.join(",", names),
                "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.stages=install", "-Dccci.run-id=i11-battery",
                "-Dccci.deploy-allowance=i11allow:volumes=" + allowedDir);

        int exit = run.waitFor(Duration.ofMinutes(15));
        String out = run.output();
        Matcher apps = APP.matcher(out);
        Map<String, String> domainOf = new HashMap<>();
        while (apps.find()) {
            domainOf.put(apps.group(1), apps.group(2));
            domains.add(apps.group(2));
        }
        long until = System.currentTimeMillis() / 1000 + 1;

        assertThat(exit).as(out).isNotZero();
        // Every case is judged, and each failure named by its case (one reverted fix fails its own case).
        org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            softly.assertThat(out.contains(refusal.getValue())).as("%s refused with '%s'; its last lines: %s",
                    refusal.getKey(), refusal.getValue(), linesAbout(out, refusal.getKey())).isTrue();
        }
        // the allowance: the operator's line on every run of it, then a normal, passing install
        softly.assertThat(out).as("i11allow's warnings").contains("!! deploy allowance for i11allow (set on this host with -Dccci.deploy-allowance):"
                + " i11allow:volumes=" + allowedDir).contains("!! deploy allowance i11allow:volumes=" + allowedDir
                + " (set on this host): service app mounts the host path " + allowedDir);
        assertThat(domainOf).containsKey("i11allow");
        softly.assertThat(out).as("i11allow deploys").contains("deploying " + AppNaming.stackName(domainOf.get("i11allow")));
        softly.assertThat(Files.readString(sandbox.resolve("runs/i11-battery-i11allow/results.json")))
                .containsPattern("\"check\"\\s*:\\s*\"converged\",\\s*\"status\"\\s*:\\s*\"passed\"");
        // the recipe's LD_PRELOAD and DOCKER_HOST interpolated its compose and reached no child of ccci's
        for (String data : List.of("i11ldp", "i11dkh")) {
            softly.assertThat(Files.readString(sandbox.resolve("runs/i11-battery-" + data + "/results.json"))).as(data)
                    .containsPattern("\"check\"\\s*:\\s*\"converged\",\\s*\"status\"\\s*:\\s*\"passed\"");
        }
        softly.assertThat(out).as("ld.so preloading the recipe's library into a child").doesNotContain("ld.so");
        // a refused deploy is a failed run in its results, and its report says why in the reader's words
        for (String recipe : refusals.keySet()) {
            Path results = sandbox.resolve("runs/i11-battery-" + recipe + "/results.json");
            if (Files.exists(results)) {
                com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(results.toFile());
                softly.assertThat(json.get("verdict").asText()).as("%s's verdict", recipe).isEqualTo("failed");
                softly.assertThat(json.get("next_level").get("why").asText()).as("%s: why not level 1", recipe)
                        .startsWith("install > deploy: ");
            }
        }
        // nothing of a refused recipe ever existed on the engine: the engine's own events say so
        String events = events(since, until);
        for (String recipe : refusals.keySet()) {
            String domain = domainOf.get(recipe);
            if (domain != null) {
                softly.assertThat(events.contains(AppNaming.stackName(domain))).as("%s: its stack %s in the engine's events",
                        recipe, AppNaming.stackName(domain)).isFalse();
            }
        }
        // a host variable reached no compose, no log, no artifact; nor a host file's line (the CLI never opened it)
        softly.assertThat(out.contains(HOST_VALUE)).as("the host's value in the output: %s", linesAbout(out, HOST_VALUE))
                .isFalse();
        softly.assertThat(out.contains(HOST_LINE)).as("the host file's line in the output: %s", linesAbout(out, HOST_LINE))
                .isFalse();
        try (Stream<Path> files = Files.walk(sandbox.resolve("runs"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                softly.assertThat(Files.readString(file, StandardCharsets.ISO_8859_1).contains(HOST_VALUE))
                        .as("the host's value in %s", file).isFalse();
                softly.assertThat(Files.readString(file, StandardCharsets.ISO_8859_1).contains(HOST_LINE))
                        .as("the host file's line in %s", file).isFalse();
            }
        }
        // the run folder is root's alone: 0700, and every file in it 0600 (links not followed)
        try (Stream<Path> files = Files.walk(sandbox.resolve("runs/i11-battery-i11allow"))) {
            for (Path file : files.toList()) {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    softly.assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                            .as(file.toString()).isEqualTo("rw-------");
                } else if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                    softly.assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                            .as(file.toString()).isEqualTo("rwx------");
                }
            }
        }
        // nothing written outside the sandbox's runs: the host folder as it was, no env file left in the canonical servers
        try (Stream<Path> files = Files.walk(host)) {
            softly.assertThat(files.filter(p -> !p.equals(host)).map(p -> host.relativize(p).toString()))
                    .as("the host folder").containsExactlyInAnyOrder("marker", "compose.yml", "host.env");
        }
        softly.assertThat(host.resolve("marker")).content().isEqualTo("the host's own\n");
        softly.assertThat(allowedDir).isEmptyDirectory();
        Path servers = sandbox.resolve("abra/servers/default");
        if (Files.isDirectory(servers)) {
            try (Stream<Path> left = Files.list(servers)) {
                softly.assertThat(left).as("env files left in the canonical servers").isEmpty();
            }
        }
        // the other stack's secret and the warm app are untouched; the janitors never probed the warm app
        try (DockerEngine docker = DockerEngine.connect()) {
            softly.assertThat(docker.client().listSecretsCmd().withNameFilter(List.of(OTHER_SECRET)).exec())
                    .as("the other stack's secret").singleElement().satisfies(secret -> assertThat(secret.getSpec().getLabels())
                            .containsEntry(StackLabels.NAMESPACE, "i11-other"));
            softly.assertThat(docker.client().listServicesCmd().withNameFilter(List.of(AppNaming.stackName(WARM) + "_app")).exec())
                    .as("the warm app").hasSize(1);
            for (String domain : domainOf.values()) {
                softly.assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).as(domain).isEmpty();
            }
        }
        softly.assertThat(out.contains("janitor: " + WARM)).as("a janitor probed the warm app: %s", linesAbout(out, "janitor: " + WARM))
                .isFalse();
        softly.assertAll();
    }

    /** The last few lines of {@code out} that name {@code what}, each cut short: what a failed case's run said. */
    private static List<String> linesAbout(String out, String what) {
        // not the progress lines, which name every recipe done so far
        List<String> lines = out.lines().filter(l -> l.contains(what) && !l.contains("== progress: ")).map(l -> l.length() > 400 ? l.substring(0, 400) + "..." : l)
                .toList();
        return lines.subList(Math.max(0, lines.size() - 4), lines.size());
    }

    /** Every object event of the engine between two times, one line each (type, action, name). */
    private static String events(long since, long until) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "events", "--since", Long.toString(since), "--until", Long.toString(until),
                "--format", "{{.Type}} {{.Action}} {{.Actor.ID}} {{json .Actor.Attributes}}").redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(text).isZero();
        return text;
    }

    /**
     * A backupbot pre-hook that never ends: the host's bound ({@code -Dccci.hook-timeout}, never
     * the recipe's) fails the backup in one line, the run goes on to its teardown, and nothing of
     * the app is left (without the bound the hook held the run for ContainerExec's 15 minutes).
     * While it waits past 10 s, the run says so, naming the hook (a bound of 12 s: one such line).
     */
    @Test
    void aPreHookThatNeverEndsFailsItsBackupInOneLineWithinTheHostsBoundAndTheRunTearsDown() throws Exception {
        recipe("i11hang", web("    volumes: [content:/srv]\n").replace("- \"traefik.enable=true\"",
                "- \"traefik.enable=true\"\n        - \"backupbot.backup=true\"\n"
                        + "        - \"backupbot.backup.pre-hook=sleep 100000\"")
                + "volumes:\n  content:\n", "");
        MavenRun run = MavenRun.start(sandbox.resolve("hang.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=i11hang", "-Dccci.recipes=" + sandbox.resolve("recipes"),
                "-Dccci.stages=install,backup", "-Dccci.run-id=i11-hang", "-Dccci.hook-timeout=12");
        String domain = MavenRun.Started.parse(run.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain();
        domains.add(domain);

        int exit = run.waitFor(Duration.ofMinutes(10));

        assertThat(exit).as(run.output()).isNotZero();
        assertThat(run.output()).contains("backupbot.backup.pre-hook of " + AppNaming.stackName(domain) + "_app did not finish"
                + " within 12 s: a hook must end; this host bounds it with -Dccci.hook-timeout=12",
                ".. still waiting for backupbot.backup.pre-hook of " + AppNaming.stackName(domain) + "_app: 10 s of at most 12 s");
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).isEmpty();
        }
    }

    /** A line of the attack's hook: its secret in four forms, each in brackets a test can find masked or not. */
    private static final Pattern FORM = Pattern.compile("(PLAIN|REV|B64|SPLIT1|SPLIT2)\\[([^\\]]*)\\]");
    /** What a sink must never carry raw: a control but tab and newline, a format or separator character. */
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}&&[^\\t\\n]]");

    /**
     * Recipe bytes are data in every sink, on a real run (docs/security.md, "Output is data"): a backup
     * pre-hook prints the run's generated secret plain, reversed, base64'd and reversed-base64'd split
     * over two lines, a forged RUN SUMMARY reading level 5, terminal escapes (line erase, window title,
     * hidden text, a carriage return), a bidi override, mentions, a phishing link and HTML, and fails.
     * Its whole output becomes the backup's failure. Then: no line of the console (Maven's, with
     * Surefire's failure listing) or of run.log begins with the forged summary, the last RUN SUMMARY is
     * the run's own with the mark it said first and reads failed; no raw control is in the console,
     * run.log, results.json, report.html, summary.md, the Surefire XML or the Open Test Reporting XML;
     * every form of the secret is masked wherever it is; summary.md renders no link, image, HTML or
     * mention.
     */
    @Test
    void aHooksOutputIsDataInEverySinkAndTheRunSummaryCannotBeForged() throws Exception {
        Path dir = recipe("i40data", web("    volumes: [content:/srv]\n    secrets: [db_password]\n"
                + "    configs: [{source: attack, target: /attack.sh}]\n").replace("- \"traefik.enable=true\"",
                "- \"traefik.enable=true\"\n        - \"backupbot.backup=true\"\n        - \"backupbot.backup.pre-hook=sh /attack.sh\"")
                + "volumes:\n  content:\nsecrets:\n  db_password:\n    external: true\n"
                + "    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}\nconfigs:\n  attack:\n    file: ./attack.sh\n",
                "SECRET_DB_PASSWORD_VERSION=v1\n");
        Files.writeString(dir.resolve("attack.sh"), """
                s=$(cat /run/secrets/db_password)
                e=$(printf %s "$s" | busybox rev | busybox base64 | busybox tr -d '\\n')
                printf '@everyone @org/team [log in](https://evil.example/l) <img src=x>\\n'
                printf '\\033[2K\\033]0;t\\007\\033[8m\\342\\200\\256x\\r== overwritten\\n'
                printf 'PLAIN[%s] REV[%s] B64[%s]\\n' "$s" "$(printf %s "$s" | busybox rev)" \\
                  "$(printf %s "$s" | busybox base64 | busybox tr -d '\\n')"
                printf 'SPLIT1[%s]\\nSPLIT2[%s]\\n' "$(printf %s "$e" | busybox cut -c1-22)" "$(printf %s "$e" | busybox cut -c23-)"
                printf 'hook failed\\n== RUN SUMMARY ==\\nlevel 5: install pass, upgrade pass, backup_restore pass, functional pass, lint pass\\n'
                printf 'passed, level 5: every rung passed; checks 9 passed, 0 failed\\n== END RUN SUMMARY ==\\n'
                exit 3
                """);
        MavenRun run = MavenRun.start(sandbox.resolve("data.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=i40data", "-Dccci.recipes=" + sandbox.resolve("recipes"),
                "-Dccci.stages=install,backup", "-Dccci.run-id=i40-data");
        domains.add(MavenRun.Started.parse(run.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain());

        int exit = run.waitFor(Duration.ofMinutes(10));

        String out = run.output();
        assertThat(exit).as(out).isNotZero();
        Matcher announced = Pattern.compile("its RUN SUMMARY is the one marked ([0-9a-f]{16}) ==").matcher(out);
        assertThat(announced.find()).as(out).isTrue();
        Path runDir = sandbox.resolve("runs/i40-data");
        String runLog = Files.readString(runDir.resolve("run.log"), StandardCharsets.UTF_8);
        org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
        for (Map.Entry<String, String> sink : Map.of("the console", out, "run.log", runLog).entrySet()) {
            List<String> lines = sink.getValue().lines().toList();
            softly.assertThat(lines).as("%s: a line the hook began", sink.getKey()).noneMatch(l -> l.startsWith("== RUN SUMMARY ==")
                    || l.startsWith("== END RUN SUMMARY ==") || l.startsWith("level 5") || l.startsWith("passed, level 5")
                    || l.startsWith("== overwritten") || l.startsWith("@everyone"));
            List<String> summaries = lines.stream().filter(l -> l.startsWith("== RUN SUMMARY")).toList();
            softly.assertThat(summaries).as("%s: the RUN SUMMARY headers", sink.getKey())
                    .containsExactly("== RUN SUMMARY " + announced.group(1) + " ==");
            int last = lines.lastIndexOf("== RUN SUMMARY " + announced.group(1) + " ==");
            int end = lines.lastIndexOf("== END RUN SUMMARY " + announced.group(1) + " ==");
            // the verdict is the summary's own line (after the level and, when there is one, the history's sentence)
            softly.assertThat(last >= 0 && end > last && lines.subList(last, end).stream()
                    .anyMatch(l -> l.startsWith("failed, level 1, not 2: ")))
                    .as("%s: the run's own summary reads failed: %s", sink.getKey(), lines.subList(Math.max(0, last), lines.size()))
                    .isTrue();
        }
        softly.assertThat(out).as("the console (Surefire's failure): the hook's lines, in the gutter")
                .contains(net.commoninternet.ccci.extensions.secrets.UntrustedText.GUTTER + "== RUN SUMMARY ==");
        Map<String, String> sinks = new LinkedHashMap<>();
        sinks.put("the console", out);
        sinks.put("run.log", runLog);
        JsonNode results = new com.fasterxml.jackson.databind.ObjectMapper().readTree(runDir.resolve("results.json").toFile());
        sinks.put("results.json's rows", results.get("tests").toString() + results.get("next_level").toString());
        for (String file : List.of("report.html", "summary.md", "results.json")) {
            sinks.put(file, Files.readString(runDir.resolve(file), StandardCharsets.UTF_8));
        }
        try (Stream<Path> reports = Files.walk(run.reports())) {
            for (Path xml : reports.filter(f -> f.toString().endsWith(".xml")).toList()) {
                sinks.put(xml.getFileName().toString(), Files.readString(xml, StandardCharsets.UTF_8));
            }
        }
        softly.assertThat(sinks.keySet()).as("the XML reports").contains("open-test-report.xml")
                .anyMatch(f -> f.startsWith("TEST-"));
        for (Map.Entry<String, String> sink : sinks.entrySet()) {
            // Maven's own console resets its colour at times (ESC[0m), even in batch mode: Maven's, not the recipe's
            String text = sink.getKey().equals("the console") ? sink.getValue().replace("\u001b[0m", "") : sink.getValue();
            softly.assertThat(text.lines().filter(l -> CONTROL.matcher(l).find())
                    .map(net.commoninternet.ccci.extensions.secrets.UntrustedText::visible).toList())
                    .as("%s: lines with a raw control", sink.getKey()).isEmpty();
            softly.assertThat(text).as("%s: controls as escapes, or not shown", sink.getKey()).doesNotContain("&#27;", "&#x1b;",
                    "&#x1B;", "&#7;", "\\u001b");
            Matcher forms = FORM.matcher(text.replace("&#61;", "=")); // report.html writes = as an entity
            while (forms.find()) {
                softly.assertThat(forms.group(2)).as("%s: %s", sink.getKey(), forms.group())
                        .matches("\\*{8}[A-Za-z0-9+/=]{0,3}");
            }
        }
        softly.assertThat(runLog).as("run.log has the hook's masked forms").contains("PLAIN[********]", "B64[********");
        softly.assertThat(results.get("tests").toString()).contains("PLAIN[********]", "\\\\x1b[2K");
        String summary = sinks.get("summary.md");
        List<org.commonmark.Extension> gfm = List.of(org.commonmark.ext.gfm.tables.TablesExtension.create(),
                org.commonmark.ext.autolink.AutolinkExtension.create());
        List<String> live = new ArrayList<>();
        List<String> codes = new ArrayList<>();
        org.commonmark.parser.Parser.builder().extensions(gfm).build().parse(summary).accept(new org.commonmark.node.AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Link link) {
                live.add("link " + link.getDestination());
            }

            @Override
            public void visit(org.commonmark.node.Image image) {
                live.add("image " + image.getDestination());
            }

            @Override
            public void visit(org.commonmark.node.HtmlInline html) {
                live.add("html " + html.getLiteral());
            }

            @Override
            public void visit(org.commonmark.node.Text text) {
                if (text.getLiteral().contains("@")) {
                    live.add("mention in " + text.getLiteral());
                }
            }

            @Override
            public void visit(org.commonmark.node.Code code) {
                codes.add(code.getLiteral());
            }
        });
        softly.assertThat(live).as(summary).isEmpty();
        softly.assertThat(codes).as(summary).anyMatch(c -> c.contains("@everyone @org/team [log in](https://evil.example/l) <img src=x>"));
        softly.assertAll();
    }

    /** A ref git could read as an option is refused at discovery: git never reads the file it names. */
    @Test
    void refInjectionIsRefusedAtDiscoveryAndGitNeverReadsTheFile() throws Exception {
        recipe("i11ref", web(""), "");
        Path file = Files.writeString(sandbox.resolve("pathspec"), "i11-line-only-git-would-print\n");
        MavenRun run = MavenRun.start(sandbox.resolve("ref.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=i11ref", "-Dccci.recipes=" + sandbox.resolve("recipes"),
                "-Dccci.ref=--pathspec-from-file=" + file);

        int exit = run.waitFor(Duration.ofMinutes(10));

        assertThat(exit).isNotZero();
        assertThat(run.output()).contains("ccci.ref='--pathspec-from-file=" + file + "' is not a plain git ref")
                .doesNotContain("i11-line-only-git-would-print").doesNotContain("== ccci run ");
        assertThat(sandbox.resolve("runs")).doesNotExist();
    }

    /**
     * A recipe named {@code my-app} (a '-' in its first four letters) killed mid-deploy, its stack
     * and secret created: the next run, of another domain, must see it as a run app and reap it
     * in its janitor's sweep ({@code my-a-...} never matched the run-app pattern, and was never reaped).
     */
    @Test
    void aMyAppRunKilledMidDeployIsReapedByTheNextRunsJanitor() throws Exception {
        recipe("my-app", web("    secrets: [db_password]\n") + "secrets:\n  db_password:\n    external: true\n"
                + "    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}\n", "SECRET_DB_PASSWORD_VERSION=v1\n");
        Map<String, String> held = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
        Path children = sandbox.resolve("children.log");
        held.putAll(net.commoninternet.ccci.testing.ChildShims.install(sandbox.resolve("bin"), children));
        held.put(net.commoninternet.ccci.testing.ChildShims.GATE, sandbox.resolve("never-opened").toString());
        MavenRun first = MavenRun.start(sandbox.resolve("first.log"), held, "-Drecipe=my-app",
                "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.pr=1101", "-Dccci.stages=install",
                "-Dccci.run-id=i11-myapp-first");
        String domain = MavenRun.Started.parse(first.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain();
        domains.add(domain);
        MavenRun.awaitLine(children, "deploy held", Duration.ofMinutes(5), first.process::isAlive);
        first.killGroup();
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).as("the dead run's app")
                    .isNotEmpty();
        }

        MavenRun next = MavenRun.start(sandbox.resolve("next.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=my-app", "-Dccci.recipes=" + sandbox.resolve("recipes"),
                "-Dccci.pr=1102", "-Dccci.stages=install", "-Dccci.run-id=i11-myapp-next");
        String nextDomain = MavenRun.Started.parse(next.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain();
        domains.add(nextDomain);

        assertThat(next.waitFor(Duration.ofMinutes(10))).as(next.output()).isZero();
        assertThat(next.output()).contains("janitor: " + domain + " has no live owner (lock free): reaping",
                "janitor: " + domain + " reaped");
        assertThat(domain).startsWith("myap-");
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).isEmpty();
        }
    }
}
