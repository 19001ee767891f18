package net.commoninternet.ccci.extensions.keep;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * What the keeper runs from, in the keep's folder: the JVM's class path copied there, a Java argument
 * file naming it, and the two
 * commands a maintainer is given ({@code shell}, {@code end}). A CI server deletes the checkout after
 * the step (Woodpecker does, with its {@code target/} folders): nothing the keeper loads may come from
 * there.
 */
final class KeeperFiles {

    static final String ARGS = "java.args";
    static final String SHELL = "shell";
    static final String END = "end";

    private KeeperFiles() {
    }

    /** The java binary of this JVM (its installation is the host's, not the checkout's). */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Copies the class path into {@code folder/lib} and writes the argument file and the commands. */
    static void write(Path folder, String domain) throws IOException {
        Path lib = Files.createDirectories(folder.resolve("lib"));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (Path entry : classPath()) {
            Path copy = lib.resolve((i++) + "-" + entry.getFileName());
            if (Files.isDirectory(entry)) {
                copyTree(entry, copy);
            } else {
                // a copy, never a hard link: the run folder's files are made private at its end, and a link
                // would change the mode of the Maven repository's own jar (one inode)
                Files.copy(entry, copy);
            }
            entries.add(copy.toString());
        }
        Files.writeString(folder.resolve(ARGS), "-Xshare:auto -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx96m -cp \""
                + String.join(":", entries) + "\"\n", StandardCharsets.UTF_8);
        String client = "exec " + quote(java()) + " " + quote("@" + folder.resolve(ARGS)) + " " + KeepShell.class.getName()
                + " " + quote(folder.resolve(Keeper.SHELL_SOCKET).toString());
        script(folder.resolve(SHELL), "# A shell in a service of the kept app " + domain + " (default: app), through its keeper:"
                + "\n# the service's running container, as confined as the run's; its output masked of the run's secrets."
                + "\n# Usage: shell [service] [command...]  (no command: sh reading standard input)\n"
                + client + " shell \"$@\"\n");
        script(folder.resolve(END), "# Ends the keep of " + domain + " now: its keeper tears the app down, then exits.\n"
                + client + " end\n");
    }

    private static void script(Path path, String body) throws IOException {
        Files.writeString(path, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** The class path as entries: a manifest-only jar (Surefire's booter) stands for the entries it names. */
    static Set<Path> classPath() throws IOException {
        Set<Path> out = new LinkedHashSet<>();
        for (String item : ManagementFactory.getRuntimeMXBean().getClassPath().split(java.io.File.pathSeparator)) {
            if (item.isEmpty()) {
                continue;
            }
            Path entry = Path.of(item).toAbsolutePath();
            if (!Files.exists(entry)) {
                continue;
            }
            List<Path> named = Files.isRegularFile(entry) ? manifestClassPath(entry) : List.of();
            if (named.isEmpty()) {
                out.add(entry);
            } else {
                named.stream().filter(Files::exists).forEach(out::add);
            }
        }
        return out;
    }

    private static List<Path> manifestClassPath(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String cp = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (cp == null || cp.isBlank()) {
                return List.of();
            }
            List<Path> out = new ArrayList<>();
            URI base = jar.getParent().toUri();
            for (String ref : cp.trim().split("\\s+")) {
                out.add(Path.of(base.resolve(ref)));
            }
            return out;
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(p)) {
                    Files.copy(p, target);
                }
            }
        }
    }
}
