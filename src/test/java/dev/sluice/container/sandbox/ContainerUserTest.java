package dev.sluice.container.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContainerUserTest {

    private static final ContainerUser USER = ContainerUser.of("65534:65534");

    private static final PasswdFile PASSWD = new PasswdFile(("root:x:0:0:root:/root:/bin/sh\n"
                    + "toor:x:00:0:another root:/root:/bin/sh\n"
                    + "app:x:1000:0:group root:/home/app:/bin/sh\r\n"
                    + "odd:x:zero:0::/:/bin/sh\n"
                    + "huge:x:4294967295:0::/:/bin/sh\n"
                    + "app:x:0:0:a second line of the name:/:/bin/sh\n")
            .getBytes(StandardCharsets.UTF_8));

    private final List<String> lookedUp = new ArrayList<>();

    private Optional<String> decide(String imageUser, boolean rootAllowed) {
        return USER.decide(imageUser, rootAllowed, name -> {
                    lookedUp.add(name);
                    return PASSWD.uid(name);
                })
                .map(ContainerUser.RunAs::spec);
    }

    @ParameterizedTest
    @CsvSource({
        "''",
        "0",
        "00",
        "0000:0",
        "0:0",
        "0:1000",
        "root",
        "root:root",
        "toor",
        "toor:1000",
        // no such name, a uid that is no number, one out of the kernel's range: nothing settled
        "nobody-here",
        "odd",
        "huge",
        "4294967295",
        "99999999999",
        "-1"
    })
    void rootInAnySpellingAndWhatCannotBeSettledRunAsTheConfiguredUser(String imageUser) {
        assertThat(decide(imageUser, false)).contains("65534:65534");
    }

    @ParameterizedTest
    @CsvSource({
        "1000, 1000:65534",
        "1000:0, 1000:65534",
        "01000:1000, 1000:65534",
        "app, 1000:65534",
        "app:0, 1000:65534",
        "4294967294, 4294967294:65534"
    })
    void aNonRootUserKeepsItsUidAndNeverItsGroup(String imageUser, String expected) {
        assertThat(decide(imageUser, false)).contains(expected);
    }

    @ParameterizedTest
    @CsvSource({"0", "00", "0000:0", "root", "toor:toor"})
    void rootAllowedForTheImageIsUidZeroWithTheConfiguredGroup(String imageUser) {
        assertThat(decide(imageUser, true)).contains("0:65534");
    }

    @Test
    void onlyNamesAreLookedUp() {
        decide("0000:0", false);
        decide("1000:app", false);
        decide("", false);
        assertThat(lookedUp).isEmpty();
        decide("toor:1000", false);
        assertThat(lookedUp).containsExactly("toor");
    }

    @Test
    void imageKeepsTheImagesUserWithoutLookingAnythingUp() {
        ContainerUser image = ContainerUser.of("image");
        assertThat(image.decide("0", false, name -> {
                    throw new AssertionError("looked up " + name);
                }))
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"65534, 65534:65534", "1000:2000, 1000:2000", "001:002, 1:2"})
    void theConfiguredUserIsNumeric(String configured, String expected) {
        assertThat(ContainerUser.of(configured).decide("", false, name -> OptionalLong.empty()))
                .map(ContainerUser.RunAs::spec)
                .contains(expected);
    }

    @ParameterizedTest
    @CsvSource({"nobody", "nobody:nogroup", "1000:staff", "1:2:3", "''", ":"})
    void aConfiguredUserNotInNumbersIsRefused(String configured) {
        assertThatThrownBy(() -> ContainerUser.of(configured))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sluice.container.user is " + configured
                        + "; it must be uid:gid in numbers, such as 65534:65534 (a name could mean any user"
                        + " in an image's /etc/passwd), or image");
    }

    @Test
    void theUserAContainerWasCreatedWithIsReadBackOnlyInNumbers() {
        assertThat(ContainerUser.RunAs.parse("1000:65534")).contains(new ContainerUser.RunAs(1000, 65534));
        assertThat(ContainerUser.RunAs.parse("")).isEmpty();
        assertThat(ContainerUser.RunAs.parse(null)).isEmpty();
        assertThat(ContainerUser.RunAs.parse("app:0")).isEmpty();
        assertThat(ContainerUser.RunAs.parse("1000")).isEmpty();
    }

    @Test
    void theFirstLineOfANameCounts() {
        assertThat(PASSWD.uid("app")).hasValue(1000);
        assertThat(PASSWD.uid("toor")).hasValue(0);
        assertThat(PASSWD.uid("roo")).isEmpty();
        assertThat(new PasswdFile(new byte[0]).uid("root")).isEmpty();
        assertThat(new PasswdFile("root:x\n".getBytes(StandardCharsets.UTF_8)).uid("root"))
                .isEmpty();
    }
}
