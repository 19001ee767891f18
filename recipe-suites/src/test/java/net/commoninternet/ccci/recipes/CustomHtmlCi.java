package net.commoninternet.ccci.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.AfterOperation;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;

/** custom-html's CI: what a maintainer of the recipe checks beyond the generic floor. */
public final class CustomHtmlCi implements RecipeCustomization {

    @Override
    public String recipe() {
        return "custom-html";
    }

    @Override
    public Map<String, Object> keys() {
        return Map.of(
                "HEALTH_PATH", "/",
                "HEALTH_OK", List.of(200),
                // Ready once nginx takes three connects in a row, not merely once its task runs.
                "READY_PROBE", "tcp:80:3",
                "EXTRA_ENV", Map.of("CCCI_SITE_NOTE", "installed by ccci",
                        // masked in results.json (a secret-looking name); the app never uses it
                        "CCCI_SMTP_PASSWORD", "not-a-real-password"),
                "UPGRADE_EXTRA_ENV", Map.of("CCCI_SITE_NOTE", "upgraded by ccci"),
                "BACKUP_VERIFY", "exec:app:test -s /usr/share/nginx/html/index.html",
                // Runs that depend on custom-html use warm-custom-html.ci.commoninternet.net when it is live.
                "WARM_CANONICAL", true);
    }

    /** The CI overlay (compose.ccci.yml): hands the CI's env values to the app's container. */
    @Override
    public Optional<String> composeOverlay() {
        return Optional.of("""
                version: "3.8"
                services:
                  app:
                    environment:
                      - CCCI_SITE_NOTE
                      - CCCI_PRE_INSTALL
                """);
    }

    /** pre_install: the hook sees the app before it exists and can set its env. */
    @BeforeOperation(Tier.INSTALL)
    void preInstall(HookContext context) throws Exception {
        assertThat(context.app()).as("no live app before the install's deploy").isEmpty();
        context.setEnv("CCCI_PRE_INSTALL", context.baseUrl());
    }

    /** pre_backup: a page written to the content volume right before the backup must survive the restore. */
    @BeforeOperation(Tier.BACKUP)
    void preBackup(HookContext context) throws Exception {
        LiveApp app = context.app().orElseThrow();
        LiveApp.Response written = app.exec("app", "echo '<p>written before the backup</p>' > /usr/share/nginx/html/pre-backup.html");
        assertThat(written.status()).as(written.body()).isZero();
    }

    /** The overlay, EXTRA_ENV and the pre-install hook all reached the deployed container. */
    @AfterOperation(Tier.INSTALL)
    void theCiOverlayCarriesExtraEnvAndTheHooksValueIntoTheApp(LiveApp app) throws Exception {
        LiveApp.Response env = app.exec("app", "echo \"$CCCI_SITE_NOTE|$CCCI_PRE_INSTALL\"");

        assertThat(env.body()).isEqualTo("installed by ccci|https://" + app.domain());
    }

    /** UPGRADE_EXTRA_ENV was set before the in-place redeploy, and the overlay still applies to the new head. */
    @AfterOperation(Tier.UPGRADE)
    void theUpgradeRedeployedWithItsExtraEnv(LiveApp app) throws Exception {
        assertThat(app.exec("app", "echo \"$CCCI_SITE_NOTE\"").body()).isEqualTo("upgraded by ccci");
    }

    /** What the pre-backup hook wrote is served again after the restore. */
    @AfterOperation(Tier.RESTORE)
    void thePageWrittenBeforeTheBackupIsServedAfterTheRestore(LiveApp app) throws Exception {
        LiveApp.Response page = app.get("/pre-backup.html");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("written before the backup");
    }

    /**
     * pre_upgrade, so on the base release (the install deploys the head when UPGRADE does not
     * run): 1.0.0's site config (nginx_conf v1, NGINX_CONF_VERSION in abra.sh) has no
     * page-not-found page of its own, so a missing page is nginx's, which does not name the site.
     */
    @BeforeOperation(Tier.UPGRADE)
    void theBaseReleaseServesNginxsOwnNotFoundPage(HookContext context) throws Exception {
        LiveApp app = context.app().orElseThrow();
        assertThat(app.get("/no-such-page.html").status()).isEqualTo(404);
        assertThat(notFoundPage(app)).contains("404 Not Found", "<center>nginx/").doesNotContain(app.domain());
    }

    /** The body of a page-not-found answer, as a browser gets it (busybox's wget, the probe's client, drops error bodies). */
    private static String notFoundPage(LiveApp app) throws Exception {
        LiveApp.Response page = app.exec("app", "curl -s -H 'Host: " + app.domain() + "' http://localhost/no-such-page.html");
        assertThat(page.status()).as(page.body()).isZero();
        return page.body();
    }

    /**
     * The upgrade bumped NGINX_CONF_VERSION to v2 with a new site config: the redeploy made a new
     * swarm config, and its golang template put the app's own domain into the not-found page.
     */
    @AfterOperation(Tier.UPGRADE)
    void theUpgradeBroughtTheNewSiteConfigRenderedWithTheAppsDomain(LiveApp app) throws Exception {
        assertThat(app.get("/no-such-page.html").status()).isEqualTo(404);
        assertThat(notFoundPage(app)).isEqualTo("<h1>" + app.domain() + ": page not found</h1>");
    }

    /** The site starts with a page titled with the app's own domain. */
    @AfterOperation(Tier.INSTALL)
    void theFirstPageNamesTheAppsDomain(LiveApp app) throws Exception {
        LiveApp.Response page = app.get("/");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<h1>" + app.domain() + "</h1>");
    }

    /** Content the site owner adds to the volume is served at once, and survives as files. */
    @Functional
    void aPageAddedToTheContentVolumeIsServed(LiveApp app) throws Exception {
        LiveApp.Response written = app.exec("app", "echo '<p>hello from ccci</p>' > /usr/share/nginx/html/hello.html");
        assertThat(written.status()).as(written.body()).isZero();

        LiveApp.Response page = app.get("/hello.html");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("hello from ccci");
    }

    /** A page that does not exist is a 404, not the front page: the server really routes paths. */
    @Functional
    void aMissingPageIsNotFound(LiveApp app) throws Exception {
        assertThat(app.get("/no-such-page.html").status()).isEqualTo(404);
    }
}
