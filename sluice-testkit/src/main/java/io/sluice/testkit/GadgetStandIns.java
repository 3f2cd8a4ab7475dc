package io.sluice.testkit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.example.notallowed.Gadget;

/**
 * Harmless classes under the names of deserialization gadgets: {@link Gadget}'s class file with its
 * name rewritten in the constant pool, defined by a loader of its own. A serializer that allows the
 * name writes an instance exactly as it would write the real gadget, so the bytes name the gadget
 * without the gadget (or its library) being anywhere near the test.
 */
final class GadgetStandIns {

  private GadgetStandIns() {}

  /** A loader that defines {@code className} as a copy of {@link Gadget}. */
  static ClassLoader loaderDefining(String className, ClassLoader parent) {
    byte[] classFile =
        renamed(
            gadgetClassFile(),
            Gadget.class.getName().replace('.', '/'),
            className.replace('.', '/'));
    return new ClassLoader(parent) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(className)) {
          return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
          Class<?> loaded = findLoadedClass(name);
          return loaded != null ? loaded : defineClass(name, classFile, 0, classFile.length);
        }
      }
    };
  }

  private static byte[] gadgetClassFile() {
    try (InputStream in = Gadget.class.getResourceAsStream("Gadget.class")) {
      if (in == null) {
        throw new IllegalStateException("Gadget.class is not on the class path");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The class file with {@code from} replaced by {@code to} in every UTF-8 constant. */
  private static byte[] renamed(byte[] classFile, String from, String to) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
      DataOutputStream out = new DataOutputStream(bytes);
      out.write(classFile, 0, 10); // magic, versions, constant pool count
      int count = ((classFile[8] & 0xFF) << 8) | (classFile[9] & 0xFF);
      int at = 10;
      for (int index = 1; index < count; index++) {
        int tag = classFile[at] & 0xFF;
        if (tag == 1) {
          int length = ((classFile[at + 1] & 0xFF) << 8) | (classFile[at + 2] & 0xFF);
          String text =
              new DataInputStream(new ByteArrayInputStream(classFile, at + 1, length + 2))
                  .readUTF();
          out.writeByte(1);
          out.writeUTF(text.replace(from, to));
          at += 3 + length;
          continue;
        }
        int size =
            switch (tag) {
              case 7, 8, 16, 19, 20 -> 3;
              case 15 -> 4;
              case 3, 4, 9, 10, 11, 12, 17, 18 -> 5;
              case 5, 6 -> 9;
              default -> throw new IllegalStateException("constant pool tag " + tag);
            };
        out.write(classFile, at, size);
        at += size;
        if (tag == 5 || tag == 6) {
          index++; // longs and doubles take two slots
        }
      }
      out.write(classFile, at, classFile.length - at);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
