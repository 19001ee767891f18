package net.commoninternet.ccci.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.spi.AfterOperation;
import net.commoninternet.ccci.spi.Functional;
import net.commoninternet.ccci.spi.LiveApp;
import net.commoninternet.ccci.spi.RecipeCustomization;
import net.commoninternet.ccci.spi.Tier;

/** custom-html's CI: what a maintainer of the recipe checks beyond the generic floor. */
public final class CustomHtmlCi implements RecipeCustomization {

    @Override
    public String recipe() {
        return "custom-html";
    }

    @Override
    public Map<String, Object> keys() {
        return Map.of("HEALTH_PATH", "/", "HEALTH_OK", List.of(200));
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
        LiveApp.Response written = app.exec("app", "echo '<p>hello from ccci</p>' > /var/www/hello.html");
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
