package net.commoninternet.ccci.spi;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * A run's state, kept by its tiers and extensions from one callback to the next (a backup's
 * snapshot for the restore, where the previous tier's log window ended), one typed slot per
 * {@link Key}. A key is equal only to itself: whoever keeps a key private keeps its slot private,
 * and a tier that publishes a key shares its slot, typed, with whoever reads it. Safe to use from
 * several threads.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface Store {

    /** The value in {@code key}'s slot, if one was put there. */
    <T> Optional<T> find(Key<T> key);

    /** Puts {@code value} in {@code key}'s slot, replacing what was there. */
    <T> void put(Key<T> key, T value);

    /** The value in {@code key}'s slot; {@code initial}'s, put there atomically, when there is none yet. */
    <T> T computeIfAbsent(Key<T> key, Supplier<? extends T> initial);

    /**
     * A slot of one type. Identity is the key object: two keys of the same name and type are two
     * slots.
     */
    final class Key<T> {
        private final String name;
        private final Class<T> type;

        private Key(String name, Class<T> type) {
            this.name = Objects.requireNonNull(name, "name");
            this.type = Objects.requireNonNull(type, "type");
        }

        /** @param name what the slot holds, for messages only */
        public static <T> Key<T> of(String name, Class<T> type) {
            return new Key<>(name, type);
        }

        /** {@code value} as this slot's type: what a store's implementation keeps it as. */
        public T cast(Object value) {
            return type.cast(value);
        }

        @Override
        public String toString() {
            return name + " (" + type.getSimpleName() + ")";
        }
    }
}
