package net.commoninternet.ccci.engine.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.config.Suggestions;

/** The recipes available under {@code ccci.recipes}: one folder per recipe. */
final class RecipeCatalog {

    private final Path dir;

    RecipeCatalog(Path dir) {
        this.dir = dir;
    }

    /** The names of the recipes found, sorted. */
    List<String> names() {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> SettingsReader.RECIPE_NAME.matcher(n).matches())
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source folder of {@code recipe}; the name must already be a valid recipe name. */
    Path source(String recipe) {
        return dir.resolve(recipe);
    }

    boolean contains(String recipe) {
        return Files.isDirectory(source(recipe));
    }

    String notFound(String recipe) {
        List<String> names = names();
        return "recipe '" + recipe + "' not found in " + dir + ": "
                + (names.isEmpty() ? "that directory holds no recipe folders" : "available are " + String.join(", ", names))
                + "; pass -Drecipe=<one of them> or point -Dccci.recipes at the directory holding it."
                + Suggestions.didYouMean(recipe, names);
    }
}
