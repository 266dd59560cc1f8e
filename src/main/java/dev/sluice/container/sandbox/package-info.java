/**
 * What confines a dispatch's container (ADR 0079): its settings ({@code ContainerConfig}) and
 * spec, the user it runs as, chosen from the image's passwd read without starting the image
 * ({@code ContainerUser}, {@code ImagePasswd}, {@code PasswdFile}) and the images allowed root
 * ({@code ImagePatterns}, the one matching of image patterns, which {@code image} uses too), the
 * network it may have ({@code NetworkModes}, {@code NoneNetworkChoice}) with the hosts file of a
 * bare namespace, volumes with a size ({@code VolumeQuota}), and the labels the worker puts on
 * engine objects. It uses {@code container.engine} alone among the container packages.
 */
package dev.sluice.container.sandbox;
