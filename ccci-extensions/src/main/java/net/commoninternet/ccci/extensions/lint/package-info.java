/**
 * The recipe's lint: abra's rules by their refs ({@code AbraRule}, the catalogue both drivers name
 * their checks from), the embedded judgement of each on the checked-out tree ({@code AbraRules},
 * over {@code LintedRecipe}), ccci's own checks beside them ({@code CcciRules}), and the README's
 * metadata block ({@code ReadmeMetadata}).
 *
 * <p>Used by the drivers (the swarm driver lints with it, the abra driver names abra's rows by its
 * catalogue and adds ccci's own checks) and by the results (the README's scores against the run).
 * Depends on {@code recipe} and below.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.lint;

import org.apiguardian.api.API;
