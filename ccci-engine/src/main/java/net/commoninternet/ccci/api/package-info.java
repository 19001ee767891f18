/**
 * What a recipe maintainer writes against: a {@link net.commoninternet.ccci.api.RecipeCustomization}
 * (validated {@link net.commoninternet.ccci.api.CiKeys}, an overlay, hooks given a
 * {@link net.commoninternet.ccci.api.HookContext}, assertions and functional tests given the
 * {@link net.commoninternet.ccci.api.LiveApp}), the {@link net.commoninternet.ccci.api.Tier}s, and
 * the anchor annotation {@link net.commoninternet.ccci.api.RecipeCi}.
 *
 * <p>Depends on nothing else of ccci; everything may depend on it.
 */
@API(status = API.Status.EXPERIMENTAL)
package net.commoninternet.ccci.api;

import org.apiguardian.api.API;
