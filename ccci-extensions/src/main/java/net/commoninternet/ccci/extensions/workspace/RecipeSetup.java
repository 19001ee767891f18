package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.policy.ResourceBounds;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spec's "set env, add the {@code compose.ccci.yml} overlay, run {@code install_steps.sh}"
 * step, between creating the app and deploying it. Everything goes through the app's env file,
 * which both drivers deploy from: {@code EXTRA_ENV} values, and {@code COMPOSE_FILE} extended
 * with the overlays.
 *
 * <p>Two kinds of CI code: the recipe's customization in this repository (reviewed: its overlay
 * always applies) and files inside the recipe repository, which come with the pull request under
 * test ({@code compose.ccci.yml}, {@code install_steps.sh}): those are used only for a recipe the
 * host approved as reviewed (the digest of those files, {@link RecipeCode}, is one the host lists),
 * and otherwise ignored with a log line naming the digest and a note in the results.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeSetup {

    private static final Logger LOG = LoggerFactory.getLogger(RecipeSetup.class);

    /** The recipe repository's own overlay (recipe code). */
    static final String RECIPE_OVERLAY = "compose.ccci.yml";
    /** The recipe repository's own install steps (recipe code). */
    public static final String INSTALL_STEPS = "install_steps.sh";
    /**
     * Where the customization's overlay is written, inside the app's tree (untracked, survives
     * checkouts; relative, as abra joins COMPOSE_FILE entries to the recipe's folder). Never
     * through a link: the tree's links were checked at checkout ({@link RecipeTree}), and the
     * folder and the file themselves must not be links ({@link #writeOverlay}).
     */
    public static final String CUSTOMIZATION_OVERLAY = ".ccci/compose.customization.yml";
    /** ccci's default limits for the services that set none ({@link ResourceBounds}), for a driver that deploys the files itself. */
    static final String LIMITS_OVERLAY = ".ccci/compose.limits.yml";

    /** The digests of the recipe's own CI code the host approved, as reviewed; empty: it never runs. */
    private final Set<String> approved;
    private final Optional<RecipeCustomization> customization;
    private final ChildProcesses children;
    /** What was used or ignored, for the results' customization manifest. */
    private final Map<String, String> used = new LinkedHashMap<>();

    /** @param approved the digests ({@code sha256:<hex>}) of the recipe's own CI code the host approved */
    public RecipeSetup(Set<String> approved, Optional<RecipeCustomization> customization, ChildProcesses children) {
        this.approved = Set.copyOf(approved);
        this.customization = customization;
        this.children = children;
    }

    /** The digest an approval of the tree's own CI code names ({@code sha256:<hex>}, {@link RecipeCode}). */
    public static String codeDigest(Path tree) throws IOException {
        return RecipeCode.digest(tree);
    }

    /** For the manifest: each overlay or recipe file and what became of it. */
    public Map<String, String> used() {
        return Map.copyOf(used);
    }

    /** Before the single deploy: EXTRA_ENV, the overlays, the approved recipe's install steps. */
    public void beforeInstall(App app, CiKeys keys) throws IOException, InterruptedException {
        setEnv(app, keys.extraEnv(), "EXTRA_ENV");
        applyOverlays(app);
        runInstallSteps(app);
    }

    /** Before the upgrade's redeploy of the new head: UPGRADE_EXTRA_ENV, and the overlays of the new tree. */
    public void beforeUpgrade(App app, CiKeys keys) throws IOException {
        setEnv(app, keys.upgradeExtraEnv(), "UPGRADE_EXTRA_ENV");
        applyOverlays(app);
    }

    private static void setEnv(App app, Map<String, String> values, String key) throws IOException {
        if (values.isEmpty()) {
            return;
        }
        EnvFile env = EnvFile.read(app.envFile());
        values.forEach(env::set);
        env.write(app.envFile());
        LOG.info("{}: set {} in the app's env", key, String.join(", ", new TreeSet<>(values.keySet())));
    }

    /**
     * {@code COMPOSE_FILE} = the recipe's own list without its CI overlay, then the recipe's
     * {@code compose.ccci.yml} if the recipe is approved, then the customization's overlay.
     */
    public void applyOverlays(App app) throws IOException {
        EnvFile env = EnvFile.read(app.envFile());
        String before = env.values().getOrDefault("COMPOSE_FILE", "compose.yml");
        // Compared normalized: "./compose.ccci.yml" in a recipe's COMPOSE_FILE is the same file.
        List<String> files = new ArrayList<>(app.composeFiles().stream().filter(f -> !isCiOverlay(f)).toList());
        if (Files.isRegularFile(app.recipeDir().resolve(RECIPE_OVERLAY))) {
            if (approvedAsReviewed(app)) {
                files.add(RECIPE_OVERLAY);
                used.put(RECIPE_OVERLAY, "applied (recipe on the approved list)");
            } else {
                used.put(RECIPE_OVERLAY, "ignored: recipe code, and " + app.recipe() + " is not on the approved list");
                LOG.warn("the recipe's own {} is ignored: {} is not on the approved list (ccci.approved-recipes); after"
                        + " reviewing its CI code as it is now: -Dccci.approved-recipes={}@{}", RECIPE_OVERLAY, app.recipe(),
                        app.recipe(), RecipeCode.digest(app.recipeDir()));
            }
        }
        Optional<String> overlay = customization.flatMap(RecipeCustomization::composeOverlay);
        if (overlay.isPresent()) {
            writeOverlay(app, CUSTOMIZATION_OVERLAY, overlay.get());
            files.add(CUSTOMIZATION_OVERLAY);
            used.put("compose overlay of " + customization.get().getClass().getSimpleName(), "applied");
        }
        String after = String.join(":", files);
        if (!after.equals(before)) {
            env.set("COMPOSE_FILE", after).write(app.envFile());
            LOG.info("COMPOSE_FILE={}", after);
        }
    }

    /**
     * The customization's overlay into the tree, never through a symbolic link the recipe ships:
     * its folder must be a real folder and the file is opened with {@code O_NOFOLLOW}.
     */
    private static void writeOverlay(App app, String relative, String overlay) throws IOException {
        Path file = app.recipeDir().resolve(relative);
        Path dir = file.getParent();
        if (Files.isSymbolicLink(dir) || Files.isSymbolicLink(file)) {
            throw new IllegalStateException(app.recipe() + ": " + app.recipeDir().relativize(Files.isSymbolicLink(dir) ? dir : file)
                    + " is a symbolic link, and ccci writes its CI overlay there: remove it from the recipe (the name is"
                    + " ccci's).");
        }
        Files.createDirectories(dir);
        Files.writeString(file, overlay, StandardCharsets.UTF_8, LinkOption.NOFOLLOW_LINKS, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    private static boolean isCiOverlay(String file) {
        String normal = Path.of(file).normalize().toString();
        return normal.equals(RECIPE_OVERLAY) || normal.equals(CUSTOMIZATION_OVERLAY) || normal.equals(LIMITS_OVERLAY);
    }

    /**
     * ccci's defaults as the last overlay of {@code COMPOSE_FILE}, for a driver that deploys the
     * recipe's files itself (abra): {@code limits}, what the judged compose's services get
     * ({@link ResourceBounds#overlay}: limits where a service sets none, tmpfs sizes, the host's log
     * rotation); null, no overlay.
     */
    public static void applyLimits(App app, com.fasterxml.jackson.databind.JsonNode limits) throws IOException {
        List<String> files = new ArrayList<>(app.composeFiles());
        if (files.stream().anyMatch(f -> Path.of(f).normalize().toString().equals(LIMITS_OVERLAY))) {
            return; // made for this tree; beforeInstall and beforeUpgrade drop it when the tree moves
        }
        EnvFile env = EnvFile.read(app.envFile());
        if (limits != null) {
            writeOverlay(app, LIMITS_OVERLAY, RecipeLabels.write(limits));
            files.add(LIMITS_OVERLAY);
            LOG.info("ccci's default limits for the services that set none, as an overlay: {}", limits.path("services"));
        }
        env.set("COMPOSE_FILE", String.join(":", files)).write(app.envFile());
    }

    /**
     * Whether the recipe's own CI code may run: the host approved it, and the files are the ones
     * reviewed (their digest is one approved). Approved but changed since is refused in one sentence:
     * running the new code would run what nobody reviewed, and running the recipe without its CI
     * code would test something else.
     */
    private boolean approvedAsReviewed(App app) throws IOException {
        if (approved.isEmpty()) {
            return false;
        }
        String digest = RecipeCode.digest(app.recipeDir());
        if (!approved.contains(digest)) {
            throw new IllegalStateException(app.recipe() + ": its own CI code (" + String.join(" and ",
                    RecipeCode.present(app.recipeDir())) + ") is " + digest + ", not the content this host approved ("
                    + String.join(", ", new TreeSet<>(approved)) + "): review it and approve it with -Dccci.approved-recipes="
                    + app.recipe() + "@" + digest + ", or take " + app.recipe() + " off the approved list to run it without.");
        }
        return true;
    }

    private void runInstallSteps(App app) throws IOException, InterruptedException {
        Path steps = app.recipeDir().resolve(INSTALL_STEPS);
        if (!Files.isRegularFile(steps)) {
            return;
        }
        if (!approvedAsReviewed(app)) {
            used.put(INSTALL_STEPS, "ignored: recipe code, and " + app.recipe() + " is not on the approved list");
            LOG.warn("the recipe's own {} is ignored: {} is not on the approved list (ccci.approved-recipes); after"
                    + " reviewing its CI code as it is now: -Dccci.approved-recipes={}@{}", INSTALL_STEPS, app.recipe(),
                    app.recipe(), RecipeCode.digest(app.recipeDir()));
            return;
        }
        // the app's values, but none that would steer the script's own tools (its shell, docker, git): the
        // approval covers the script, not what the recipe's .env.sample makes of the programs it runs
        Map<String, String> env = new HashMap<>();
        List<String> left = new ArrayList<>();
        app.deployEnv().forEach((name, value) -> {
            if (ChildEnvironment.steersAChild(name)) {
                left.add(name);
            } else {
                env.put(name, value);
            }
        });
        if (!left.isEmpty()) {
            LOG.warn("{} gets the app's values but not {}: they would change how its own programs run",
                    INSTALL_STEPS, String.join(", ", new TreeSet<>(left)));
        }
        env.put("DOMAIN", app.domain());
        env.put(ChildEnvironment.OP, "install");
        env.put(ChildEnvironment.BASE_URL, "https://" + app.domain());
        env.put(ChildEnvironment.ENV_FILE, app.envFile().toString());
        LOG.info("running the recipe's {} (approved recipe)", INSTALL_STEPS);
        ChildProcesses.Result result = children.run(List.of("sh", "-eu", INSTALL_STEPS), app.recipeDir(), env,
                Duration.ofMinutes(10));
        result.output().lines().forEach(line -> LOG.info("install_steps.sh: {}", line));
        if (!result.ok()) {
            throw new IOException(INSTALL_STEPS + " of " + app.recipe() + " exited " + result.exitCode()
                    + ": fix the script (its output is above); the app was not deployed.");
        }
        used.put(INSTALL_STEPS, "ran (recipe on the approved list)");
    }
}
