-- The images the worker pulled (ADR 0062), so that the ones unused for
-- sluice.images.unused-retention can be removed, and no other. A row is keyed
-- by the engine the image was pulled to (its docker info ID), not by the
-- worker: replicas beside one engine share its rows, so a use by any of them
-- keeps the image, and replicas on other engines never touch it. The reference
-- is the normalized one (registry/path:tag or registry/path@digest), as the
-- engine was asked for it; the image id is what it named after the pull.
CREATE TABLE pulled_images (
    engine_id    VARCHAR(128)             NOT NULL,
    reference    VARCHAR(600)             NOT NULL,
    image_id     VARCHAR(128)             NOT NULL,
    pulled_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    last_used_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (engine_id, reference)
);

CREATE INDEX pulled_images_engine_last_used ON pulled_images (engine_id, last_used_at);
