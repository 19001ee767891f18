package net.commoninternet.ccci.extensions.driver;

import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;
import net.commoninternet.ccci.spi.DriverKind;
import org.apiguardian.api.API;

/** The {@link DriverProvider}s on the class path, one per {@link DriverKind}. */
@API(status = API.Status.INTERNAL)
public final class Drivers {

    private static final Map<DriverKind, DriverProvider> PROVIDERS = load();

    private Drivers() {
    }

    /** The provider of {@code kind}; every kind ccci knows has one in ccci-extensions. */
    public static DriverProvider of(DriverKind kind) {
        DriverProvider provider = PROVIDERS.get(kind);
        if (provider == null) {
            throw new IllegalStateException("no " + kind.id() + " driver on the class path: ccci-extensions registers"
                    + " one per kind in META-INF/services/" + DriverProvider.class.getName() + ".");
        }
        return provider;
    }

    private static Map<DriverKind, DriverProvider> load() {
        Map<DriverKind, DriverProvider> providers = new EnumMap<>(DriverKind.class);
        for (DriverProvider provider : ServiceLoader.load(DriverProvider.class, Drivers.class.getClassLoader())) {
            DriverProvider previous = providers.putIfAbsent(provider.kind(), provider);
            if (previous != null) {
                throw new IllegalStateException("two " + provider.kind().id() + " drivers on the class path: "
                        + previous.getClass().getName() + " and " + provider.getClass().getName() + "; keep one.");
            }
        }
        return providers;
    }
}
