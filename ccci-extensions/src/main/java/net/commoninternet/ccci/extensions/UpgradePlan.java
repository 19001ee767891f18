package net.commoninternet.ccci.extensions;

import java.io.IOException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How this run upgrades, decided before the app exists: the base release deployed first, the
 * head commit redeployed in place by the UPGRADE tier, and the version label the head declares
 * (what the deployed app must show once upgraded). Without a base the UPGRADE tier is a
 * structural skip with {@code reason}.
 */
record UpgradePlan(Optional<RecipeVersion> base, String headCommit, Optional<String> headVersion, String reason) {

    private static final Pattern VERSION_LABEL = Pattern.compile("coop-cloud\\.\\$\\{STACK_NAME}\\.version=([^\"'\\s]+)");

    static UpgradePlan notSelected(String headCommit) {
        return new UpgradePlan(Optional.empty(), headCommit, Optional.empty(), "upgrade not selected");
    }

    static UpgradePlan resolve(RecipeFetch fetch, RecipeFetch.Fetched tree) throws IOException, InterruptedException {
        Optional<String> headVersion = fetch.show(tree.dir(), tree.commit(), "compose.yml").flatMap(UpgradePlan::versionLabel);
        Optional<RecipeVersion> base = fetch.upgradeBase(tree);
        return new UpgradePlan(base, tree.commit(), headVersion,
                base.isPresent() ? "upgrade from " + base.get() : "no release older than the head to upgrade from");
    }

    static Optional<String> versionLabel(String compose) {
        Matcher m = VERSION_LABEL.matcher(compose);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
