package io.sluice.config.spi;

/**
 * A section of the file ({@code sluice.jobs}, {@code batch}), mapped once per file after its flows,
 * whether it is written or not (an absent section maps to its defaults, or to nothing). What it
 * maps to is found with {@code Configuration.section(type)}.
 *
 * @param <T> what the section is mapped to
 */
public interface SectionComponent<T> extends ConfigComponent<T> {

  @Override
  default ComponentKind kind() {
    return ComponentKind.SECTION;
  }

  /** The type of what the section maps to, by which it is found. */
  Class<T> type();

  /**
   * Why a store that keeps nothing ({@code sluice.store.type: memory}) cannot serve the section
   * when it is written ({@code cannot keep jobs, and sluice.jobs is set}); null when it can.
   */
  default String needsDurableStore() {
    return null;
  }
}
