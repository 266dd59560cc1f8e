package dev.sluice.summary;

import java.net.URI;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

class SummaryProducer {

    private static final Logger LOG = Logger.getLogger(SummaryProducer.class);

    /** Off unless a URL is configured; checked at start-up, so a URL it may not use stops the worker. The key is never logged. */
    @Produces
    @Singleton
    @Startup(ObserverMethod.DEFAULT_PRIORITY - 1000) // before the store: a setting that is wrong says so first
    Summarizer summarizer(SummarizerConfig config) {
        if (config.url().isEmpty()) {
            return Summarizer.OFF;
        }
        URI url = SummarizerEndpoint.checked(
                config.url().get(), config.allowedHosts().orElse(List.of()));
        LOG.infof(
                "summaries of truncated or unreported output by %s at %s://%s",
                config.model(), url.getScheme(), url.getHost());
        return new ChatCompletionsSummarizer(
                url, config.model(), config.apiKey().filter(key -> !key.isBlank()), config.timeout(), (int)
                        Math.min(Integer.MAX_VALUE, config.maxInputBytes().asLongValue()));
    }
}
