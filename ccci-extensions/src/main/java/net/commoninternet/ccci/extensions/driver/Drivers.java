package net.commoninternet.ccci.extensions.driver;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apiguardian.api.API;

/** The {@link DriverProvider}s on the class path, by id. */
@API(status = API.Status.INTERNAL)
public final class Drivers {

    private Drivers() {
    }

    /**
     * The provider of {@code id}: the engine accepted only ids of drivers it found, and
     * ccci-extensions registers each of its own under both service names.
     */
    public static DriverProvider of(String id) {
        DriverProvider provider = load().get(id);
        if (provider == null) {
            throw new IllegalStateException("no " + id + " driver on the class path: ccci-extensions registers each of"
                    + " its drivers in META-INF/services/" + DriverProvider.class.getName() + ".");
        }
        return provider;
    }

    private static Map<String, DriverProvider> load() {
        Map<String, DriverProvider> providers = new TreeMap<>();
        for (DriverProvider provider : ServiceLoader.load(DriverProvider.class, Drivers.class.getClassLoader())) {
            DriverProvider previous = providers.putIfAbsent(provider.id(), provider);
            if (previous != null) {
                throw new IllegalStateException("two " + provider.id() + " drivers on the class path: "
                        + previous.getClass().getName() + " and " + provider.getClass().getName() + "; keep one.");
            }
        }
        return providers;
    }
}
