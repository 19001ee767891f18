package net.commoninternet.ccci.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import net.commoninternet.ccci.spi.Functional;
import net.commoninternet.ccci.spi.LiveApp;
import net.commoninternet.ccci.spi.RecipeCustomization;

/**
 * notes-demo's CI: a functional test of its secret, written the careless way on purpose. It
 * prints the generated database password, as a maintainer debugging a test might; the run's
 * console filter must turn it into {@code ********} before it reaches the log, the Surefire
 * report or run.log (RecipeRunEndToEndTest checks that it does).
 */
public final class NotesDemoCi implements RecipeCustomization {

    @Override
    public String recipe() {
        return "notes-demo";
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
