package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.sluice.record.RequestRefused;

class CallerTest {

    private final Caller alpha = new Caller("alpha", false);
    private final Caller operator = new Caller("default", true);

    @Test
    void aTenantNamesItsOwnDispatchesByIdAndNoOtherWay() {
        assertThat(alpha.key("review-42")).contains("alpha.review-42");
        assertThat(alpha.key("beta.review-42")).isEmpty();
        assertThat(alpha.key("alpha.review-42")).isEmpty();
        assertThat(alpha.key("../x")).isEmpty();
        assertThat(alpha.key(null)).isEmpty();
        assertThat(Caller.ANONYMOUS.key("review-42")).contains("review-42");
        assertThat(Caller.ANONYMOUS.key("alpha.review-42")).isEmpty();
        assertThatThrownBy(() -> alpha.dispatchKey("beta.review-42"))
                .isInstanceOf(RequestRefused.class)
                .hasMessage("no dispatch beta.review-42");
    }

    @Test
    void anOperatorNamesAnyTenantsDispatchByKey() {
        assertThat(operator.key("beta.review-42")).contains("beta.review-42");
        assertThat(operator.key("review-42")).contains("review-42");
        assertThat(operator.key("Beta.review-42")).isEmpty();
        assertThat(operator.key("a.b.c")).isEmpty();
        assertThat(operator.listedTenant()).isNull();
        assertThat(operator.name("beta.review-42")).isEqualTo("beta.review-42");
        assertThat(alpha.name("alpha.review-42")).isEqualTo("review-42");
        assertThat(alpha.listedTenant()).isEqualTo("alpha");
    }
}
