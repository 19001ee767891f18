package net.commoninternet.ccci.engine.execution;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import net.commoninternet.ccci.spi.Store;

/** One run's {@link Store}: one slot per key object, shared by every view of the run. */
final class RunStore implements Store {

    private final Map<Key<?>, Object> slots = new ConcurrentHashMap<>();

    @Override
    public <T> Optional<T> find(Key<T> key) {
        return Optional.ofNullable(slots.get(key)).map(key::cast);
    }

    @Override
    public <T> void put(Key<T> key, T value) {
        slots.put(key, key.cast(value));
    }

    @Override
    public <T> T computeIfAbsent(Key<T> key, Supplier<? extends T> initial) {
        return key.cast(slots.computeIfAbsent(key, k -> initial.get()));
    }
}
