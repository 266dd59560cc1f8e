package dev.sluice.summary;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

class SummaryProducer {

    private static final Logger LOG = Logger.getLogger(SummaryProducer.class);

    /** Off unless a URL is configured; the key is never logged. */
    @Produces
    @Singleton
    Summarizer summarizer(SummarizerConfig config) {
        if (config.url().isEmpty()) {
            return Summarizer.OFF;
        }
        LOG.infof(
                "summaries of truncated or unreported output by %s at %s://%s",
                config.model(),
                config.url().get().getScheme(),
                config.url().get().getHost());
        return new ChatCompletionsSummarizer(
                config.url().get(),
                config.model(),
                config.apiKey().filter(key -> !key.isBlank()),
                config.timeout(),
                (int) Math.min(Integer.MAX_VALUE, config.maxInputBytes().asLongValue()));
    }
}
