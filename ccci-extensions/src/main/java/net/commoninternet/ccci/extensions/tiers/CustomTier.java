package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * CUSTOM: the recipe's own functional tests ({@code @Functional} methods of its customization)
 * against the live app. It has no generic checks and no operation of its own; a recipe without
 * functional tests has nothing here and the tier is reported skipped (unver).
 */
@API(status = API.Status.INTERNAL)
public final class CustomTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.CUSTOM;
    }

    @Override
    public List<Check> checks() {
        return List.of();
    }

    /** Nothing to do: the functional tests are its checks. */
    @Override
    public void operate(TierContext tier) {
    }
}
