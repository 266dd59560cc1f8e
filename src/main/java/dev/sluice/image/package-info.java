/**
 * Images, from the reference a request names to the image the engine removes again (ADR 0079):
 * references ({@code ImageName}), the allow-list and its address rules ({@code ImagePolicy}), the
 * settings ({@code ImagesConfig}), the pulls with their credentials, turns and failures
 * ({@code ImagePulls}, {@code ImagePuller}, {@code RegistryCredentials}, {@code PullTurns},
 * {@code PullFailure}), the settling of a dispatch's image before its container is created
 * ({@code ImageResolver}), and the table of pulled images with the collector that removes those no
 * dispatch uses ({@code PulledImages}, {@code ImageCollector}, {@code EngineImages}). It uses the
 * container's packages, the record, the store and the outbound guard; no container package uses it,
 * and it knows nothing of the run that asks it.
 */
package dev.sluice.image;
