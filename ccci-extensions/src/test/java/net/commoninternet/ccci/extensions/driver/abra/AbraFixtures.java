package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The constructed abra outputs under src/test/resources/abra/ (see PROVENANCE.md there). */
public final class AbraFixtures {

    static final AbraCli CLI = new AbraCli("abra");

    private AbraFixtures() {
    }

    public static String read(String name) {
        try (InputStream in = AbraFixtures.class.getResourceAsStream("/abra/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture abra/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
