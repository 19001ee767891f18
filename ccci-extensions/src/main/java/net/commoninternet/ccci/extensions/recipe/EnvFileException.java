package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import org.apiguardian.api.API;

/** An env file abra could not read either: its message is one sentence naming the file, the line and the fix. */
@API(status = API.Status.INTERNAL)
public final class EnvFileException extends IOException {

    private static final long serialVersionUID = 1L;

    EnvFileException(String message) {
        super(message);
    }
}
