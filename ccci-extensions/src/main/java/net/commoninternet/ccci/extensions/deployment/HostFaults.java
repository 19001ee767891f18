package net.commoninternet.ccci.extensions.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.policy.ImageRegistry;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.HostFault.Cause;
import net.commoninternet.ccci.spi.RecipeSaid;
import org.apiguardian.api.API;

/**
 * Whose fault a failure of the run is: the host's ({@link HostFault}, with its cause) or the recipe's
 * (empty). The rules, first match wins; each looks at the messages and types of the failure's chain
 * that are ccci's and the engine's own words (see below):
 * <ol>
 *   <li>it already is or carries a {@link HostFault}: that one;
 *   <li>ccci's own timeout against the engine: a {@link SocketTimeoutException} thrown inside
 *       docker-java (the engine did not answer within the client's response timeout);
 *   <li>the engine went away ({@link #engineGone}: docker-java's socket refused, closed or silent, the
 *       CLI's and the engine's words for it, no swarm leader);
 *   <li>the disk: {@code no space left on device} (ENOSPC) in ccci's or the engine's words; in the
 *       recipe's words only when the engine's own disk is full now ({@link #engineDiskFull});
 *   <li>the engine refused a request with HTTP 5xx (docker-java's exception), or its runtime could not
 *       start a container ({@code starting container failed}, {@code OCI runtime}, {@code failed to
 *       create shim}, containerd), unless the start failed on the container's own process or mounts
 *       (runc's {@code exec: "..."} and {@code executable file not found}, gVisor's {@code failed to load
 *       <path>}, {@code exec format error}, {@code bind source path does not exist}): those are the
 *       recipe's image or compose (checked on this engine under gVisor: a service whose command does not
 *       exist fails {@code starting container failed: OCI runtime start failed: ... failed to load /nope:
 *       no such file or directory: unknown});
 *   <li>{@code No such image: X}, what a swarm task says whatever kept its pull from working (the
 *       pull's real reason reaches neither the task's status nor the engine's events; only dockerd's
 *       own log has it): decided by asking the engine to reach X's registry now
 *       ({@code GET /distribution/X/json}, the engine's own resolver, proxy and credentials, as its
 *       pull had). The registry out of reach (DNS, dial, timeout, TLS, HTTP 5xx, 429
 *       {@code toomanyrequests}, no answer within {@link #REGISTRY_WAIT_SECONDS} s) is the host's; the
 *       registry has the image now, so the pull failed for a passing reason of the host's; the image
 *       does not exist or is not public ({@code manifest unknown}, {@code not found}, {@code pull
 *       access denied}, {@code unauthorized}) is the recipe's; so is any image of
 *       {@link ImageRegistry#LOCAL}, which is built on the host and never pulled. Any other answer:
 *       the recipe's, as before;
 *   <li>a registry's own error in the text ({@code https://<registry>/v2/...} with a sign of an
 *       unreachable registry, as the docker CLI and abra print a failed resolve or pull): the host's;
 *   <li>ccci's own bug: an exception of a programming error's type (null pointer, class cast, index,
 *       arithmetic, concurrent modification, no such element, unsupported operation, a linkage
 *       error) whose first frame outside the JDK and the libraries is ccci's own code, not a
 *       recipe's check or hook and not a third party's tier.
 * </ol>
 * The rules read only the engine's and ccci's own words: a recipe's words can carry the same ones (an
 * app that prints "no space left on device" in the page a check quotes, a hook whose output says "OCI
 * runtime", a recipe's own check that meets "Connection refused" from its app). So what a failure
 * quotes of the recipe ({@link RecipeSaid}: an app's answer, a probe's or a hook's output) is taken out
 * of its message first, an exception a recipe's own code made (its check, its hook, a third party's
 * tier: the first frame of its stack outside the JDK and the libraries is not ccci's) is read for its
 * causes only, and a socket's failure is the engine's only when it was docker-java's socket. A quote
 * that carries the runtime's words ({@code OCI runtime exec failed: ...}) stays: dockerd writes an
 * exec it could not start into the exec's own output. Limits: the output of a command ccci runs in the
 * app's container to write its own marker ({@code BACKUP}, {@code RESTORE}) is not marked; the engine's
 * words can echo a recipe's compose (a command's path in a start failure). Anything no rule matches
 * stays the recipe's: ccci claims the host's fault only on a positive sign.
 */
@API(status = API.Status.INTERNAL)
public final class HostFaults {

    /** How long the engine may take to reach a registry for {@code No such image}'s verdict. */
    static final int REGISTRY_WAIT_SECONDS = 15;

    private static final Pattern NO_SUCH_IMAGE = Pattern.compile("No such image: ([^\\s)\"',;]+)");
    private static final Pattern REGISTRY_URL = Pattern.compile("https?://([^/\\s\"]+)/v2/");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The runtime could not start a container. */
    private static final List<String> START_FAILED = List.of("starting container failed", "oci runtime", "failed to create shim",
            "failed to create task", "containerd", "shim error", "runc create failed", "runc run failed");
    /** ... because of the container's own process or mounts: the recipe's image or compose. */
    private static final List<String> RECIPE_START = List.of("exec: \"", "executable file not found", "exec format error",
            "failed to load ", "bind source path does not exist", "invalid mount config",
            "trying to mount a directory onto a file");
    /** A registry (or the network to it) out of reach, as the engine's Go client says it. */
    private static final List<String> UNREACHABLE = List.of("dial tcp", "no such host", "i/o timeout", "tls handshake timeout",
            "connection refused", "connection reset", "toomanyrequests", "too many requests", "request canceled",
            "context deadline exceeded", "service unavailable", "bad gateway", "gateway timeout", "internal server error",
            "unexpected eof", "received unexpected http status: 5", "network is unreachable", "no route to host");
    /** An image that is not there, or not public: the recipe's. */
    private static final List<String> MISSING = List.of("manifest unknown", "not found", "pull access denied",
            "repository does not exist", "denied", "unauthorized", "name unknown");
    private static final List<String> LIBRARIES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "com.github.dockerjava.",
            "com.fasterxml.", "org.apache.", "com.google.", "org.slf4j.", "ch.qos.", "org.junit.", "org.opentest4j.",
            "org.eclipse.jgit.", "com.samskivert.", "org.yaml.", "org.snakeyaml.", "jnr.", "com.kenai.jffi.",
            "com.github.mustachejava.", "com.github.zafarkhaja.", "com.networknt.", "dk.brics.", "org.commonmark.");
    private static final List<String> CCCI_OWN = List.of("net.commoninternet.ccci.api.", "net.commoninternet.ccci.spi.",
            "net.commoninternet.ccci.engine.", "net.commoninternet.ccci.lifecycle.", "net.commoninternet.ccci.extensions.");
    private static final List<Class<?>> BUGS = List.of(NullPointerException.class, ClassCastException.class,
            IndexOutOfBoundsException.class, ArithmeticException.class, ArrayStoreException.class,
            java.util.ConcurrentModificationException.class, java.util.NoSuchElementException.class,
            UnsupportedOperationException.class, NegativeArraySizeException.class, IllegalMonitorStateException.class,
            LinkageError.class);

    /** The engine asked about {@code No such image}; null: no engine to ask, so such a failure stays the recipe's. */
    private final DockerEngine docker;

    private HostFaults(DockerEngine docker) {
        this.docker = docker;
    }

    /** Judged with the run's engine at hand, which is asked about an image its tasks could not find. */
    public static HostFaults on(DockerEngine docker) {
        return new HostFaults(docker);
    }

    /** Judged from the failure alone: an image nobody found stays the recipe's. */
    public static HostFaults withoutEngine() {
        return new HostFaults(null);
    }

    /** The host's fault {@code failure} is, with its cause and what to do, or empty: the recipe's. */
    public Optional<HostFault> of(Throwable failure) {
        Optional<HostFault> carried = HostFault.in(failure);
        if (carried.isPresent()) {
            return carried;
        }
        Reading read = Reading.of(failure);
        List<Throwable> chain = read.chain();
        for (Throwable t : chain) {
            if (t instanceof SocketTimeoutException && inDockerJava(t)) {
                return fault(Cause.CCCI_TIMEOUT, "no answer within docker-java's response timeout (" + t.getMessage() + ")",
                        failure);
            }
        }
        if (read.engineGone()) {
            return fault(Cause.ENGINE, "it stopped answering (" + rootMessage(failure) + ")", failure);
        }
        String text = String.join("\n", read.words());
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.contains(ENOSPC)) {
            return fault(Cause.DISK, ENOSPC + ": " + line(text, ENOSPC), failure);
        }
        if (read.recipes().toLowerCase(Locale.ROOT).contains(ENOSPC)) {
            // the recipe's words say ENOSPC: its own tmpfs or its own text, unless the engine's disk really is full
            Optional<String> full = engineDiskFull();
            if (full.isPresent()) {
                return fault(Cause.DISK, full.get() + "; the recipe's output said: " + line(read.recipes(), ENOSPC), failure);
            }
        }
        boolean recipeStart = RECIPE_START.stream().anyMatch(lower::contains);
        for (Throwable t : chain) {
            if (t instanceof DockerException refused && refused.getHttpStatus() >= 500 && !recipeStart) {
                return fault(Cause.ENGINE, "it answered HTTP " + refused.getHttpStatus() + ": "
                        + DockerEngine.engineSays(refused), failure);
            }
        }
        if (!recipeStart) {
            Optional<String> start = START_FAILED.stream().filter(lower::contains).findFirst();
            if (start.isPresent()) {
                return fault(Cause.ENGINE, "its runtime could not start a container: " + line(text, start.get()), failure);
            }
        }
        Matcher missing = NO_SUCH_IMAGE.matcher(text);
        if (missing.find()) {
            Optional<String> why = unpullable(missing.group(1));
            if (why.isPresent()) {
                return fault(Cause.IMAGE_PULL, why.get(), failure);
            }
        }
        Matcher registry = REGISTRY_URL.matcher(text);
        while (registry.find()) {
            String host = registry.group(1).replaceFirst(":\\d+$", "");
            if (!host.equalsIgnoreCase(ImageRegistry.LOCAL) && UNREACHABLE.stream().anyMatch(lower::contains)
                    && MISSING.stream().noneMatch(lower::contains)) {
                return fault(Cause.IMAGE_PULL, "its registry " + host + " is out of reach: " + line(text, registry.group()),
                        failure);
            }
        }
        return bug(chain).map(why -> new HostFault(Cause.CCCI_BUG, why, failure));
    }

    /**
     * Whether {@code failure} says the engine went away, on ccci's and the engine's own words: a socket
     * refused, closed or silent inside docker-java, or the CLI's and the engine's words for it; never a
     * recipe's own connection to its app.
     */
    public static boolean engineGone(Throwable failure) {
        return Reading.of(failure).engineGone();
    }

    /**
     * A failure's chain as the rules read it: the exceptions ccci's code and the libraries made, each
     * message without what it quotes of the recipe ({@code words}, one per exception of {@code chain}),
     * and apart from them what is the recipe's ({@code recipes}: the quotes and the messages of the
     * exceptions the recipe's own code made).
     */
    private record Reading(List<Throwable> chain, List<String> words, String recipes) {

        static Reading of(Throwable failure) {
            // a quote that carries the runtime's words is the engine speaking: dockerd writes an exec it could not
            // start into the exec's own output ("OCI runtime exec failed: ..."), which is all a check or hook quotes
            List<Throwable> all = HostFaults.chain(failure);
            List<String> quoted = new ArrayList<>();
            for (Throwable t : all) {
                if (t instanceof RecipeSaid said) {
                    for (String quote : said.texts()) {
                        String lower = quote.toLowerCase(Locale.ROOT);
                        if (START_FAILED.stream().noneMatch(lower::contains)) {
                            quoted.add(quote);
                        }
                    }
                }
            }
            quoted.sort(Comparator.comparingInt(String::length).reversed());
            List<Throwable> chain = new ArrayList<>();
            List<String> words = new ArrayList<>();
            StringBuilder recipes = new StringBuilder(String.join("\n", quoted));
            for (Throwable t : all) {
                if (t instanceof RecipeSaid) {
                    continue;
                }
                if (madeByRecipe(t)) {
                    recipes.append('\n').append(t.getMessage());
                } else {
                    chain.add(t);
                    words.add(withoutQuotes(String.valueOf(t.getMessage()), quoted));
                }
            }
            return new Reading(chain, words, recipes.toString());
        }

        boolean engineGone() {
            for (int i = 0; i < chain.size(); i++) {
                Throwable t = chain.get(i);
                if (DockerEngine.socketFailure(t) ? inDockerJava(t) : DockerEngine.saysGone(words.get(i))) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Whether the engine's own disk is full now, asked when only the recipe's words said ENOSPC: the
     * filesystem of the engine's data root (its images, containers' layers and volumes), when that
     * folder is on this machine, with less than {@link #DISK_FULL_BYTES} or 2% of it left. Empty: not
     * full, or no engine here to ask (a remote one).
     */
    private Optional<String> engineDiskFull() {
        if (docker == null) {
            return Optional.empty();
        }
        try {
            Path root = Path.of(docker.client().infoCmd().exec().getDockerRootDir());
            if (!Files.isDirectory(root)) {
                return Optional.empty();
            }
            FileStore store = Files.getFileStore(root);
            long left = store.getUsableSpace();
            if (left < DISK_FULL_BYTES || left < store.getTotalSpace() / 50) {
                return Optional.of("the engine's disk (" + root + ") has " + left / (1024 * 1024) + " MiB left of "
                        + store.getTotalSpace() / (1024 * 1024) + " MiB");
            }
            return Optional.empty();
        } catch (IOException | RuntimeException cannotTell) {
            return Optional.empty();
        }
    }

    /** Less than this left on the engine's disk is a full disk, whatever its size. */
    static final long DISK_FULL_BYTES = 512L * 1024 * 1024;

    private static final String ENOSPC = "no space left on device";

    /**
     * Why {@code image}, which a task could not find, is the host's fault, or empty when it is the
     * recipe's: the engine is asked to reach its registry now.
     */
    Optional<String> unpullable(String image) {
        if (docker == null || ImageRegistry.host(image).filter(ImageRegistry.LOCAL::equalsIgnoreCase).isPresent()) {
            return Optional.empty();
        }
        String registry = ImageRegistry.host(image).orElse("Docker Hub");
        Optional<String> answer;
        CompletableFuture<Optional<String>> asked = new CompletableFuture<>();
        Thread asking = new Thread(() -> {
            try {
                asked.complete(distribution(image));
            } catch (RuntimeException | IOException e) {
                asked.completeExceptionally(e);
            }
        }, "ccci-registry-reach");
        asking.setDaemon(true);
        asking.start();
        try {
            answer = asked.get(REGISTRY_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return Optional.of(image + " was not found on the engine, whose pull from " + registry + " did not get an answer"
                    + " within " + REGISTRY_WAIT_SECONDS + " s when ccci asked again");
        } catch (ExecutionException e) {
            return Optional.empty(); // the engine itself did not answer: nothing tells whose fault the image is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        if (answer.isEmpty()) {
            return Optional.of(image + " was not found on the engine, but " + registry + " has it now: the engine's pull"
                    + " failed for a passing reason of the host's");
        }
        String says = answer.get().toLowerCase(Locale.ROOT);
        if (UNREACHABLE.stream().anyMatch(says::contains) && !says.contains("manifest unknown")) {
            return Optional.of(image + " was not found on the engine, and the engine cannot reach " + registry + ": "
                    + answer.get());
        }
        return Optional.empty(); // the image does not exist or is not public, or the engine says something else
    }

    /** The engine's answer to {@code GET /distribution/<image>/json}: empty if the registry has it, else what the engine says. */
    private Optional<String> distribution(String image) throws IOException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET)
                .path("/distribution/" + image + "/json").build();
        try (DockerHttpClient.Response response = docker.http().execute(request)) {
            String body = new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8);
            if (response.getStatusCode() == 200) {
                return Optional.empty();
            }
            try {
                JsonNode message = JSON.readTree(body).path("message");
                return Optional.of(message.isTextual() ? message.asText() : body.strip());
            } catch (IOException notJson) {
                return Optional.of("HTTP " + response.getStatusCode() + " " + body.strip());
            }
        }
    }

    /**
     * Why {@code chain} (what ccci's code and the libraries made) is ccci's own bug: its first exception
     * of a programming error's type, thrown in ccci's code.
     */
    private static Optional<String> bug(List<Throwable> chain) {
        for (Throwable t : chain) {
            if (BUGS.stream().noneMatch(type -> type.isInstance(t))) {
                continue;
            }
            Optional<StackTraceElement> frame = firstOwnFrame(t);
            if (frame.isPresent()) {
                return Optional.of(t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage())
                        + " at " + frame.get());
            }
        }
        return Optional.empty();
    }

    /** The first frame of {@code t}'s stack outside the JDK and the libraries; empty when there is none. */
    private static Optional<StackTraceElement> firstOwnFrame(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (LIBRARIES.stream().noneMatch(frame.getClassName()::startsWith)) {
                return Optional.of(frame);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a recipe's own code made {@code t} (its check, its hook, a third party's tier): the first
     * frame of its stack outside the JDK and the libraries is not ccci's. Its words are the recipe's.
     */
    private static boolean madeByRecipe(Throwable t) {
        return !(t instanceof HostFault) && firstOwnFrame(t).map(StackTraceElement::getClassName)
                .filter(at -> CCCI_OWN.stream().noneMatch(at::startsWith)).isPresent();
    }

    /** {@code message} without what it quotes of the recipe (longest first, so a quote within a longer one goes with it). */
    private static String withoutQuotes(String message, List<String> quoted) {
        String left = message;
        for (String quote : quoted) {
            left = left.replace(quote, " ");
        }
        return left;
    }

    private static Optional<HostFault> fault(Cause cause, String detail, Throwable failure) {
        return Optional.of(new HostFault(cause, detail, failure));
    }

    private static boolean inDockerJava(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().startsWith("com.github.dockerjava.")) {
                return true;
            }
        }
        return false;
    }

    /** The failure and its causes, each once, and what each suppressed (bounded). */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        collect(failure, chain, 0);
        return chain;
    }

    private static void collect(Throwable t, List<Throwable> into, int depth) {
        if (t == null || depth > 20 || into.contains(t)) {
            return;
        }
        into.add(t);
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, into, depth + 1);
        }
        collect(t.getCause(), into, depth + 1);
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage()).strip();
    }

    /** The line of {@code text} that says {@code sign} (case aside), stripped. */
    private static String line(String text, String sign) {
        for (String line : text.split("\n")) {
            if (line.toLowerCase(Locale.ROOT).contains(sign.toLowerCase(Locale.ROOT))) {
                return line.strip();
            }
        }
        return text.strip();
    }
}
