package net.commoninternet.ccci.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;

/**
 * notes-demo's CI: a functional test of its secret, written the careless way on purpose. It
 * prints the generated database password, as a maintainer debugging a test might; the run's
 * console filter must turn it into {@code ********} before it reaches the log, the Surefire
 * report or run.log (RecipeRunEndToEndTest checks that it does). It also declares a cold
 * dependency, custom-html, which the run deploys before it and removes after it.
 */
public final class NotesDemoCi implements RecipeCustomization {

    @Override
    public String recipe() {
        return "notes-demo";
    }

    @Override
    public Map<String, Object> keys() {
        return Map.of("DEPS", List.of("custom-html"));
    }

    /** The dependency's app is live and reachable from the app's own network, the way the app would call it. */
    @Functional
    void theDependencyIsLiveAndReachableFromTheApp(LiveApp app) throws Exception {
        String dep = app.deps().get("custom-html");
        assertThat(dep).as("custom-html's app domain").isNotNull().endsWith(".ci.commoninternet.net");

        LiveApp.Response page = app.exec("app", "wget -q -O - --header 'Host: " + dep + "' http://tasks."
                + dep.replace('.', '_') + "_app:80/");

        assertThat(page.status()).as(page.body()).isZero();
        assertThat(page.body()).contains("<h1>" + dep + "</h1>");
    }

    /** Both services see the same generated secret, and the front only serves once it has it. */
    @Functional
    void theFrontAndTheDatabaseShareTheGeneratedPassword(LiveApp app) throws Exception {
        LiveApp.Response front = app.exec("app", "cat /run/secrets/db_password");
        LiveApp.Response db = app.exec("db", "cat /run/secrets/db_password");
        System.out.println("db_password as the front sees it: " + front.body());

        assertThat(front.status()).isZero();
        assertThat(front.body()).hasSizeGreaterThanOrEqualTo(16).isEqualTo(db.body());
        assertThat(app.get("/").body()).contains("database credentials mounted");
    }
}
