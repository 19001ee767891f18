package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * A STAND-IN for the abra CLI, which cannot be installed where ccci is built. It is a shell
 * script named {@code abra} in a directory of its own (so a test can put it on a child's PATH,
 * as the real one is on the production host's), and it knows nothing of abra: it records how it
 * was called (its argv, the {@code ABRA_DIR} it saw, whether stdin and stdout were terminals),
 * prints what the test told it to (a constructed fixture, see resources/abra/PROVENANCE.md) and
 * exits with the code the test told it to. Only tests create it, only in their temporary folder.
 */
public final class FakeAbra {

    private static final String SCRIPT = String.join("\n",
            "#!/bin/sh",
            "# FakeAbra: a test stand-in for the abra CLI (see FakeAbra.java). Not abra.",
            "if [ -t 0 ]; then stdin=tty; else stdin=not-tty; fi",
            "if [ -t 1 ]; then stdout=tty; else stdout=not-tty; fi",
            "{",
            "  printf 'argv:'; for a in \"$@\"; do printf ' [%s]' \"$a\"; done; printf '\\n'",
            "  printf 'ABRA_DIR=%s\\n' \"$ABRA_DIR\"",
            "  echo \"stdin=$stdin\"; echo \"stdout=$stdout\"",
            "} > \"$FAKE_ABRA_LOG\"",
            "cat \"$FAKE_ABRA_OUTPUT\"",
            "exit \"$FAKE_ABRA_EXIT\"",
            "");

    private final Path dir;

    private FakeAbra(Path dir) {
        this.dir = dir;
    }

    /** Writes the stand-in as {@code <dir>/bin/abra}. */
    public static FakeAbra install(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path script = Files.writeString(bin.resolve("abra"), SCRIPT);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return new FakeAbra(dir);
    }

    /** The stand-in's path, for an {@link AbraCli} that names its executable. */
    Path executable() {
        return dir.resolve("bin/abra");
    }

    /** A PATH on which {@code abra} is the stand-in, ahead of the machine's own directories. */
    public String searchPath() {
        return dir.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }

    /** The environment that makes the stand-in print {@code output} and exit {@code exit}. */
    public Map<String, String> answering(String output, int exit) throws IOException {
        Path printed = Files.writeString(dir.resolve("fake-abra-output"), output);
        return Map.of("FAKE_ABRA_LOG", dir.resolve("fake-abra-log").toString(), "FAKE_ABRA_OUTPUT", printed.toString(),
                "FAKE_ABRA_EXIT", Integer.toString(exit));
    }

    /** How it was last called: {@code argv: [..] ..}, {@code ABRA_DIR=..}, {@code stdin=..}, {@code stdout=..}. */
    public List<String> log() throws IOException {
        return Files.readAllLines(dir.resolve("fake-abra-log"), StandardCharsets.UTF_8);
    }
}
