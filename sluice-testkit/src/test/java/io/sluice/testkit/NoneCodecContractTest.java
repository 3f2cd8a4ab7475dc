package io.sluice.testkit;

import io.sluice.core.serialization.NoneCodecFactory;
import io.sluice.core.serialization.spi.CodecFactory;

/** The codec contract, run against the JDK's none codec. */
class NoneCodecContractTest extends CodecContractTest {

  @Override
  protected CodecFactory factory() {
    return new NoneCodecFactory();
  }

  @Override
  protected boolean compresses() {
    return false;
  }
}
