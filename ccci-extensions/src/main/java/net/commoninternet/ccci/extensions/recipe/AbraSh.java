package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A recipe's {@code abra.sh}, read the way abra's deploy reads it and never executed: each
 * top-level {@code export NAME=value} line is a value of the deploy environment (the versions of
 * the configs the recipe vendors, {@code export NGINX_CONF_VERSION=v2}), and wins over the app's
 * env file. Lines inside functions (indented) and anything else are shell code for
 * {@code abra app cmd}, which ccci does not run. The value is read as an env file value
 * ({@link EnvFile}: quotes removed, an inline comment dropped).
 */
@API(status = API.Status.INTERNAL)
public final class AbraSh {

    public static final String FILE = "abra.sh";

    private static final Pattern EXPORT = Pattern.compile("^export[ \\t]+([A-Za-z_][A-Za-z0-9_]*=.*)$", Pattern.MULTILINE);

    private AbraSh() {
    }

    /** The exported values of {@code <recipeDir>/abra.sh}, in file order (a later export of a name wins); none without the file. */
    public static Map<String, String> exports(Path recipeDir) throws IOException {
        Path file = recipeDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        String text = EnvFile.decode(file);
        Map<String, String> exports = new LinkedHashMap<>();
        Matcher m = EXPORT.matcher(text.replace("\r\n", "\n"));
        while (m.find()) {
            try {
                EnvFile.parse(m.group(1), file.toString()).values().forEach((name, value) -> {
                    if (!name.isEmpty()) { // text after a closing quote, which godotenv reads as a key-less line
                        exports.put(name, value);
                    }
                });
            } catch (EnvFileException e) {
                throw new EnvFileException(file + ": the line \"" + m.group().strip() + "\" is not NAME=value: "
                        + "write it as export NAME=value (abra reads these lines, it does not run them).");
            }
        }
        return exports;
    }
}
