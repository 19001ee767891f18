package net.commoninternet.ccci.testing.helpers;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;

/**
 * The recipe-tree part of a run in a helper JVM, with the run's own classes: its per-run
 * ABRA_DIR ({@link RunAbraDir}), children that get it ({@link ChildProcesses}) and the fetch
 * ({@link RecipeFetch}). It acts on lines from stdin, so a test can interleave two runs:
 * {@code fetch}, {@code change <ref> <marker file>} (check out a ref and write a file in its
 * tree, as the upgrade tier does), {@code report}, {@code end}.
 *
 * <p>Usage: {@code FetchRun <runs dir> <run id> <canonical abra dir> <recipe source> <recipe>}.
 */
public final class FetchRun {

    private FetchRun() {
    }

    public static void main(String[] args) throws Exception {
        String runId = args[1];
        RunAbraDir abra = RunAbraDir.create(Path.of(args[0]).resolve(runId), Path.of(args[2]));
        Path source = Path.of(args[3]);
        Path tree = abra.recipe(args[4]);
        ChildProcesses children = new ChildProcesses(Map.of("ABRA_DIR", abra.root().toString()));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        say(runId, "started");
        for (String line = in.readLine(); line != null && !line.equals("end"); line = in.readLine()) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "fetch" -> say(runId, "fetched commit=" + new RecipeFetch(children).fetch(source, tree, null).commit()
                        + " tree=" + tree);
                case "change" -> {
                    children.run(List.of("git", "-C", tree.toString(), "checkout", "--quiet", words[1]), null)
                            .orThrow();
                    Files.writeString(tree.resolve(words[2]), runId + "\n");
                    say(runId, "changed");
                }
                case "report" -> {
                    String head = children.run(List.of("git", "-C", tree.toString(), "rev-parse", "HEAD"), null)
                            .orThrow().output().strip();
                    try (Stream<Path> files = Files.list(tree)) {
                        say(runId, "report head=" + head + " files=" + files.map(p -> p.getFileName().toString())
                                .sorted().collect(Collectors.joining(",")));
                    }
                }
                default -> throw new IllegalArgumentException("unknown command " + line);
            }
        }
    }

    private static void say(String runId, String line) {
        System.out.println("run " + runId + ": " + line);
        System.out.flush();
    }
}
